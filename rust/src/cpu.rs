//! What the CPU offers, detected at run time: the x86-64-v3 instructions
//! (BMI2's `pext` and `pdep`, AVX2) that the games' fast bit kernels use.
//! Every game asks here, so that all pick their kernels by the same rules,
//! and one choice ([`set_backend`]) switches them all.

use core::sync::atomic::{AtomicU8, Ordering};

/// Whether the CPU has AVX2, BMI1, BMI2 and LZCNT, the instructions of the
/// x86-64-v3 level that the kernels use (the standard library caches the
/// answer).
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn has_x86_v3() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
}

/// [`has_x86_v3`], where `pext` and `pdep` are also fast: Intel from Haswell
/// on, AMD from Zen 3 on. (Zen 1 and 2 run them in microcode, many times
/// slower than portable code.)
#[cfg(target_arch = "x86_64")]
pub fn fast_x86_v3() -> bool {
    has_x86_v3() && !slow_pdep()
}

/// Whether this is an AMD (or Hygon) CPU before Zen 3 (family 0x19), where
/// `pext` and `pdep` are slow.
#[cfg(target_arch = "x86_64")]
pub fn slow_pdep() -> bool {
    use core::arch::x86_64::__cpuid;
    // Every x86-64 CPU has CPUID, with leaves 0 and 1.
    let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
    let name = [vendor.ebx, vendor.edx, vendor.ecx];
    let amd = name == [0x6874_7541, 0x6974_6e65, 0x444d_4163] // "AuthenticAMD"
        || name == [0x6f67_7948, 0x6e65_476e, 0x656e_6975]; // "HygonGenuine"
    let base = (signature >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((signature >> 20) & 0xFF)
    } else {
        base
    };
    amd && family < 0x19
}

/// A back end of the bit kernels, for every game at once: which code the
/// playouts and the Meridians positions run. Every back end gives the same
/// results; only the speed differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Plain 64-bit code, on any CPU.
    Portable,
    /// The x86-64-v3 instructions: BMI2's `pext` and `pdep`, AVX2, LZCNT.
    X86V3,
}

impl Backend {
    /// Every back end, supported here or not.
    pub const ALL: [Backend; 2] = [Backend::Portable, Backend::X86V3];

    /// The name by which `VELETAS_KERNEL` and [`Backend::parse`] know it.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::X86V3 => "x86-64-v3",
        }
    }

    /// Whether this CPU has the instructions of the back end (fast or not).
    pub fn is_supported(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Backend::X86V3 => has_x86_v3(),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::X86V3 => false,
        }
    }

    /// The back end named `name`, if this CPU can run it.
    ///
    /// # Errors
    ///
    /// [`BackendError`] for an unknown name or one this CPU cannot run.
    pub fn parse(name: &str) -> Result<Backend, BackendError> {
        let backend = Backend::ALL
            .into_iter()
            .find(|backend| backend.name() == name)
            .ok_or_else(|| BackendError::Unknown(name.to_owned()))?;
        if backend.is_supported() {
            Ok(backend)
        } else {
            Err(BackendError::Unsupported(backend))
        }
    }

    /// The back ends this CPU can run, the portable one first.
    pub fn supported() -> Vec<Backend> {
        Backend::ALL
            .into_iter()
            .filter(|backend| backend.is_supported())
            .collect()
    }

    /// The back end picked where none is chosen: the x86-64-v3 one where
    /// `pext` and `pdep` are fast ([`fast_x86_v3`]), measured the faster
    /// there (docs/architecture.md, "The bit kernels"); else the portable one.
    pub fn default_here() -> Backend {
        #[cfg(target_arch = "x86_64")]
        if fast_x86_v3() {
            return Backend::X86V3;
        }
        Backend::Portable
    }
}

impl core::fmt::Display for Backend {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A back end that cannot be chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BackendError {
    /// No back end has this name.
    Unknown(String),
    /// The CPU lacks the back end's instructions.
    Unsupported(Backend),
}

impl core::fmt::Display for BackendError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let names: Vec<&str> = Backend::supported().iter().map(|b| b.name()).collect();
        match self {
            BackendError::Unknown(name) => write!(
                f,
                "unknown kernel back end {}: expected one of {}",
                crate::quote::Quoted(name),
                names.join(", ")
            ),
            BackendError::Unsupported(backend) => write!(
                f,
                "kernel back end '{backend}' is not supported by this CPU \
                 (it lacks AVX2, BMI1, BMI2 or LZCNT): expected one of {}",
                names.join(", ")
            ),
        }
    }
}

impl std::error::Error for BackendError {}

/// The back end in use, as its index in [`Backend::ALL`] plus one; 0 until
/// the first [`backend`] or [`set_backend`] settles it.
static CHOSEN: AtomicU8 = AtomicU8::new(0);

const fn code(backend: Backend) -> u8 {
    match backend {
        Backend::Portable => 1,
        Backend::X86V3 => 2,
    }
}

/// The back end the kernels run: the one chosen by [`set_backend`], else
/// [`Backend::default_here`]. Read at the start of each piece of work (a
/// playout, a Meridians move), so that a choice takes effect at once; one
/// relaxed load once settled.
#[inline]
pub fn backend() -> Backend {
    match CHOSEN.load(Ordering::Relaxed) {
        1 => Backend::Portable,
        2 => Backend::X86V3,
        _ => settle(),
    }
}

/// The first [`backend`]: the default, kept unless a choice came first.
#[cold]
fn settle() -> Backend {
    let default = Backend::default_here();
    match CHOSEN.compare_exchange(0, code(default), Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => default,
        Err(_) => backend(),
    }
}

/// Chooses the back end of every kernel, for measurement and tests (the
/// Python package does it once from `VELETAS_KERNEL`); `None` goes back to
/// [`Backend::default_here`].
///
/// # Errors
///
/// [`BackendError::Unsupported`] for a back end this CPU cannot run; the
/// choice is then left as it was.
pub fn set_backend(backend: Option<Backend>) -> Result<(), BackendError> {
    let backend = backend.unwrap_or_else(Backend::default_here);
    if !backend.is_supported() {
        return Err(BackendError::Unsupported(backend));
    }
    CHOSEN.store(code(backend), Ordering::Relaxed);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backends_parse_by_name() {
        assert_eq!(Backend::parse("portable"), Ok(Backend::Portable));
        let error = Backend::parse("avx512").unwrap_err();
        assert_eq!(error, BackendError::Unknown("avx512".into()));
        assert!(error.to_string().contains("'avx512'"), "{error}");
        assert!(error.to_string().contains("portable"), "{error}");
        match Backend::parse("x86-64-v3") {
            Ok(backend) => assert!(backend.is_supported()),
            Err(error) => {
                assert_eq!(error, BackendError::Unsupported(Backend::X86V3));
                assert!(set_backend(Some(Backend::X86V3)).is_err());
            }
        }
        assert!(Backend::supported().contains(&Backend::default_here()));
        assert_eq!(Backend::supported()[0], Backend::Portable);
    }
}
