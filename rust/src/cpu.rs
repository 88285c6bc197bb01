//! What the CPU offers, detected at run time: the x86-64-v3 instructions
//! (BMI2's `pext` and `pdep`, AVX2) that the games' fast bit kernels use.
//! Every game asks here, so that all pick their kernels by the same rules,
//! and one choice ([`set_kernel`]) switches them all.

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

/// A kernel, for every game at once: which code of the bit work the
/// playouts and the Meridians positions run. Every kernel gives the same
/// results; only the speed differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Plain 64-bit code, on any CPU.
    Portable,
    /// The x86-64-v3 instructions: BMI2's `pext` and `pdep`, AVX2, LZCNT.
    X86V3,
}

impl Kernel {
    /// Every kernel, supported here or not.
    pub const ALL: [Kernel; 2] = [Kernel::Portable, Kernel::X86V3];

    /// The name by which `VELETAS_KERNEL` and [`Kernel::parse`] know it.
    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::X86V3 => "x86-64-v3",
        }
    }

    /// Whether this CPU has the instructions of the kernel (fast or not).
    pub fn is_supported(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::X86V3 => has_x86_v3(),
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::X86V3 => false,
        }
    }

    /// The kernel named `name`, if this CPU can run it.
    ///
    /// # Errors
    ///
    /// [`KernelError`] for an unknown name or one this CPU cannot run.
    pub fn parse(name: &str) -> Result<Kernel, KernelError> {
        let kernel = Kernel::ALL
            .into_iter()
            .find(|kernel| kernel.name() == name)
            .ok_or_else(|| KernelError::Unknown(name.to_owned()))?;
        if kernel.is_supported() {
            Ok(kernel)
        } else {
            Err(KernelError::Unsupported(kernel))
        }
    }

    /// The kernels this CPU can run, the portable one first.
    pub fn supported() -> Vec<Kernel> {
        Kernel::ALL
            .into_iter()
            .filter(|kernel| kernel.is_supported())
            .collect()
    }

    /// The kernel picked where none is chosen: the x86-64-v3 one where
    /// `pext` and `pdep` are fast ([`fast_x86_v3`]), measured the faster
    /// there (docs/architecture.md, "The bit kernels"); else the portable one.
    pub fn default_here() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if fast_x86_v3() {
            return Kernel::X86V3;
        }
        Kernel::Portable
    }
}

impl core::fmt::Display for Kernel {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A kernel that cannot be chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelError {
    /// No kernel has this name.
    Unknown(String),
    /// The CPU lacks the kernel's instructions.
    Unsupported(Kernel),
}

impl core::fmt::Display for KernelError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let names: Vec<&str> = Kernel::supported().iter().map(|b| b.name()).collect();
        match self {
            KernelError::Unknown(name) => write!(
                f,
                "unknown kernel {}: expected one of {}",
                crate::quote::Quoted(name),
                names.join(", ")
            ),
            KernelError::Unsupported(kernel) => write!(
                f,
                "kernel '{kernel}' is not supported by this CPU \
                 (it lacks AVX2, BMI1, BMI2 or LZCNT): expected one of {}",
                names.join(", ")
            ),
        }
    }
}

impl std::error::Error for KernelError {}

/// The kernel in use, as its index in [`Kernel::ALL`] plus one; 0 until
/// the first [`kernel`] or [`set_kernel`] settles it.
static CHOSEN: AtomicU8 = AtomicU8::new(0);

const fn code(kernel: Kernel) -> u8 {
    match kernel {
        Kernel::Portable => 1,
        Kernel::X86V3 => 2,
    }
}

/// The kernel that runs: the one chosen by [`set_kernel`], else
/// [`Kernel::default_here`]. Read at the start of each piece of work (a
/// playout, a Meridians move), so that a choice takes effect at once; one
/// relaxed load once settled.
#[inline]
pub fn kernel() -> Kernel {
    match CHOSEN.load(Ordering::Relaxed) {
        1 => Kernel::Portable,
        2 => Kernel::X86V3,
        _ => settle(),
    }
}

/// The first [`kernel`]: the default, kept unless a choice came first.
#[cold]
fn settle() -> Kernel {
    let default = Kernel::default_here();
    match CHOSEN.compare_exchange(0, code(default), Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => default,
        Err(_) => kernel(),
    }
}

/// Chooses the kernel of every game, for measurement and tests (the
/// Python package does it once from `VELETAS_KERNEL`); `None` goes back to
/// [`Kernel::default_here`].
///
/// # Errors
///
/// [`KernelError::Unsupported`] for a kernel this CPU cannot run; the
/// choice is then left as it was.
pub fn set_kernel(kernel: Option<Kernel>) -> Result<(), KernelError> {
    let kernel = kernel.unwrap_or_else(Kernel::default_here);
    if !kernel.is_supported() {
        return Err(KernelError::Unsupported(kernel));
    }
    CHOSEN.store(code(kernel), Ordering::Relaxed);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backends_parse_by_name() {
        assert_eq!(Kernel::parse("portable"), Ok(Kernel::Portable));
        let error = Kernel::parse("avx512").unwrap_err();
        assert_eq!(error, KernelError::Unknown("avx512".into()));
        assert!(error.to_string().contains("'avx512'"), "{error}");
        assert!(error.to_string().contains("portable"), "{error}");
        match Kernel::parse("x86-64-v3") {
            Ok(kernel) => assert!(kernel.is_supported()),
            Err(error) => {
                assert_eq!(error, KernelError::Unsupported(Kernel::X86V3));
                assert!(set_kernel(Some(Kernel::X86V3)).is_err());
            }
        }
        assert!(Kernel::supported().contains(&Kernel::default_here()));
        assert_eq!(Kernel::supported()[0], Kernel::Portable);
    }
}
