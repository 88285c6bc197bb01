//! What every game's observation writer shares: the bits of a rank as
//! floats or bytes, and planes of one value.

/// Row `x` holds bit `i` of `x` at entry `i`, as `one` or `zero`: eight
/// points of a rank at a time, without a branch.
const fn bit_table<T: Copy>(zero: T, one: T) -> [[T; 8]; 256] {
    let mut table = [[zero; 8]; 256];
    let mut x = 0;
    while x < 256 {
        let mut i = 0;
        while i < 8 {
            if x >> i & 1 == 1 {
                table[x][i] = one;
            }
            i += 1;
        }
        x += 1;
    }
    table
}

/// [`bit_table`] for observation planes.
pub(crate) static BITS_AS_FLOATS: [[f32; 8]; 256] = bit_table(0.0, 1.0);
/// [`bit_table`] for action masks.
pub(crate) static BITS_AS_BYTES: [[i8; 8]; 256] = bit_table(0, 1);

/// Fills plane `i` of `planes` (each of `area` floats) with 1 or 0 as
/// `values[i]` says: every plane, or, given the values `shown` that the
/// planes hold now, those whose value changed.
#[inline]
pub(crate) fn write_constant_planes(
    planes: &mut [f32],
    area: usize,
    values: &[bool],
    shown: Option<&[bool]>,
) {
    for (index, &on) in values.iter().enumerate() {
        if shown.is_none_or(|shown| shown[index] != on) {
            planes[index * area..][..area].fill(f32::from(u8::from(on)));
        }
    }
}
