//! [`Kept`]: a value worked out from a position and kept beside it, outside the position.

/// A value worked out from the position and kept beside it (a union of bit boards asked for
/// several times an entry, the map a state's options assemble): not part of the position, so
/// equal to any other, hashed as nothing and (with `#[serde(skip)]` on the field) never
/// written. Whoever changes what it is worked out from sets it again, and sets it when a state
/// is read; two equal positions then have the same kept values.
#[derive(Clone, Copy, Default)]
pub struct Kept<T>(pub T);

impl<T> PartialEq for Kept<T> {
    fn eq(&self, _: &Kept<T>) -> bool {
        true
    }
}

impl<T> Eq for Kept<T> {}

impl<T> std::hash::Hash for Kept<T> {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl<T> std::fmt::Debug for Kept<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Kept")
    }
}
