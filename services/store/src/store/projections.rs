//! Finish hooks and projections: where other crates (analysis) keep data derived from the logs,
//! framed and checksummed like the store's own records; `rebuild` recomputes them.

use super::*;

impl Store {
    /// Registers a hook run when a game finishes (see [`FinishHook`]).
    pub fn on_finish(&self, hook: FinishHook) {
        self.hooks
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(hook);
    }

    pub(crate) fn finished(
        &self,
        header: &Header,
        state: &dyn GameState,
        entries: Option<&[crate::Entry]>,
    ) {
        let hooks = self.hooks.read().unwrap_or_else(|e| e.into_inner()).clone();
        for h in hooks {
            // A hook fails only when the store was unavailable to it, which this store's own
            // reads never are; what a hook leaves undone is mended at the next attach.
            let _ = h(self, header, state, entries);
        }
    }

    fn projection_tree(&self, name: &str) -> Result<sled::Tree> {
        Ok(self.db.open_tree(format!("projection:{name}"))?)
    }

    /// Writes a value of a named projection (derived data another crate keeps here).
    pub fn projection_put(&self, name: &str, key: &[u8], value: &[u8]) -> Result<()> {
        self.projection_tree(name)?.insert(key, frame(value))?;
        Ok(())
    }

    /// The (key, value) pairs of a named projection from `from` (inclusive), in key order,
    /// checksums verified. A reader pages through a projection by resuming after its last key.
    pub fn projection_range(
        &self,
        name: &str,
        from: &[u8],
    ) -> Result<impl Iterator<Item = Result<(Vec<u8>, Vec<u8>)>>> {
        let tree = self.projection_tree(name)?;
        Ok(tree.range(from.to_vec()..).map(unframe_projection))
    }

    /// Empties a named projection.
    pub fn projection_clear(&self, name: &str) -> Result<()> {
        self.projection_tree(name)?.clear()?;
        Ok(())
    }
}
