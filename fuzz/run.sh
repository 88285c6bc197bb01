#!/usr/bin/env bash
# Fuzz the parsers for a given time per target: `fuzz/run.sh SECONDS [TARGET ...]`
# (`make fuzz FUZZ_SECONDS=...` runs every target). Rust targets need the
# nightly toolchain and cargo-fuzz; Python targets need atheris. Findings go
# to fuzz/artifacts/<target>/, and the corpora grow in fuzz/corpus/<target>/.
set -euo pipefail
cd "$(dirname "$0")"
PYTHON=${PYTHON:-python3}

# Adding a target: put it in one of these lists (see docs/testing.md).
RUST_TARGETS=(fen moves meridians_fen meridians_moves)
PYTHON_TARGETS=(records board meridians playouts_file)

seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET ...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=("${RUST_TARGETS[@]}" "${PYTHON_TARGETS[@]}")
fi

"$PYTHON" seed_corpora.py
for target in "${targets[@]}"; do
    dict=fen.dict
    [[ $target == meridians* ]] && dict=meridians.dict
    [ -f "$target.dict" ] && dict=$target.dict
    mkdir -p "corpus/$target" "artifacts/$target"
    echo "== $target ($seconds s)"
    if [[ " ${RUST_TARGETS[*]} " == *" $target "* ]]; then
        cargo +nightly fuzz run "$target" -- \
            -max_total_time="$seconds" -timeout=10 -dict="$dict"
    elif [[ " ${PYTHON_TARGETS[*]} " == *" $target "* ]]; then
        # Texts of the Python API may be long (a record, a run of thousands
        # of digits): longer inputs than libFuzzer's default 4096 bytes.
        (cd .. && "$PYTHON" "fuzz/python/$target.py" "fuzz/corpus/$target" \
            -max_total_time="$seconds" -timeout=10 -dict="fuzz/$dict" -max_len=20000 \
            -artifact_prefix="fuzz/artifacts/$target/")
    else
        echo "unknown fuzz target $target: expected one of ${RUST_TARGETS[*]} ${PYTHON_TARGETS[*]}" >&2
        exit 2
    fi
done
