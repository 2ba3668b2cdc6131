#!/bin/sh
# Records what real PyTorch prints for the programs named (folder/NAME.py,
# from this folder), as ../public/README.md describes: NAME.out from
#   PYTHONUNBUFFERED=1 PYTHONHASHSEED=0 MPLBACKEND=Agg python NAME.py > NAME.out 2>&1
# run from the program's folder, then again with OMP_NUM_THREADS=1 to
# NAME.out1, which is kept only where it differs from NAME.out in more than
# object addresses. Python 3.11
# prints a warning raised on the program's own line with the script's
# absolute path and PyTorch's with its site-packages path: both are
# shortened as the public corpus shortened them (the program's file name,
# `.../site-packages/`).
set -e
here=$(pwd)
for prog in "$@"; do
    dir=$(dirname "$prog")
    name=$(basename "$prog" .py)
    cd "$here/$dir"
    site=$(python3 -c 'import torch, os; print(os.path.dirname(os.path.dirname(torch.__file__)))')
    for run in out out1; do
        threads=""
        [ "$run" = out1 ] && threads="OMP_NUM_THREADS=1"
        start=$(date +%s.%N)
        set +e
        env $threads PYTHONUNBUFFERED=1 PYTHONHASHSEED=0 MPLBACKEND=Agg python3 "$name.py" > "$name.$run.raw" 2>&1
        code=$?
        set -e
        end=$(date +%s.%N)
        sed -e "s|$(pwd)/||g" -e "s|$site/|.../site-packages/|g" "$name.$run.raw" > "$name.$run"
        rm "$name.$run.raw"
        echo "$dir/$name $run exit=$code seconds=$(echo "$end - $start" | bc)"
    done
    # Kept only where the numbers differ, not just the addresses (0x...).
    if [ "$(sed 's/0x[0-9a-f]*/0x/g' "$name.out")" = "$(sed 's/0x[0-9a-f]*/0x/g' "$name.out1")" ]; then
        rm "$name.out1"
    fi
    cd "$here"
done
