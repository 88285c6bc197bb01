//! What the CPU offers, detected at run time: the x86-64-v3 instructions
//! (BMI2's `pext` and `pdep`, AVX2) that the games' fast bit kernels use.
//! Every game asks here, so that all pick their kernels by the same rules.

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
