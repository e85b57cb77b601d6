//! The games this binary serves, and generic helpers over them.

use rules_core::{Erased, Registry};

/// Every game kind with an implementation.
pub fn registry() -> Registry {
    Registry::new()
        .with(Erased::<five_tribes::FiveTribes>::new())
        .with(Erased::<caledonia::Caledonia>::new())
        .with(Erased::<mombasa::Mombasa>::new())
}
