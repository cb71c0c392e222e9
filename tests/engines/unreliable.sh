#!/bin/sh
# A deliberately unreliable engine for the arena tests, in POSIX sh: it speaks the plateau
# engine protocol (docs/engine-protocol.md) with `read`, plays a legal action picked from what
# `$UNRELIABLE_LEGAL --game G --variant V ACTIONS` prints (`plateau legal`: perfect-information
# games, `position start`), and misbehaves in the games its plan names.
#
# UNRELIABLE_PLAN: one mode per `game` command this engine (all its restarts together)
#   receives, comma-separated: good, crash (exits with code 3 at its second `go`, after a line
#   on stderr), hang (sleeps in a child process), garbage, unparseable, illegal; past the end
#   of the plan: good.
# UNRELIABLE_DIR: a directory for the game counter (`count`) and the ids of every process it
#   starts (`pids`: itself and its `sleep`; `sleeps`: the `sleep`s alone), so a test can
#   wait for the hang and check that no process is left.
set -f  # actions are words, never file patterns
dir=${UNRELIABLE_DIR:?}
echo $$ >> "$dir/pids"
mode=good
game=""
variant=""
actions=""
moves=0
while IFS= read -r line; do
    set -- $line
    case "$1" in
    plateau-engine)
        echo "id name unreliable"
        echo "id author the plateau tests"
        echo "option name style type string default plain"
        echo "ready"
        ;;
    isready) echo "ready" ;;
    setoption) ;;
    game)
        game=$2
        variant=$3
        n=$(cat "$dir/count" 2>/dev/null || echo 0)
        echo $((n + 1)) > "$dir/count"
        mode=$(echo "${UNRELIABLE_PLAN:-}" | cut -d, -f$((n + 1)))
        [ -n "$mode" ] || mode=good
        moves=0
        ;;
    position)
        shift 2
        actions="$*"
        ;;
    go)
        moves=$((moves + 1))
        case "$mode" in
        crash)
            if [ "$moves" -ge 2 ]; then
                echo "unreliable: crashing on purpose" >&2
                exit 3
            fi
            ;;
        hang)
            echo "unreliable: hanging on purpose" >&2
            sleep 1000 &
            echo $! >> "$dir/pids"
            echo $! >> "$dir/sleeps"
            wait
            ;;
        garbage)
            echo "hello, arena"
            continue
            ;;
        unparseable)
            echo "bestaction zz-top!"
            continue
            ;;
        illegal)
            echo "bestaction a1-b1"
            continue
            ;;
        esac
        legal=$($UNRELIABLE_LEGAL --game "$game" --variant "$variant" $actions)
        count=$(printf '%s\n' "$legal" | wc -l)
        pick=$(((moves * 7919 + $$) % count + 1))
        echo "info depth 1 nodes $count score 0 pv x"
        echo "bestaction $(printf '%s\n' "$legal" | sed -n "${pick}p")"
        ;;
    quit) exit 0 ;;
    "") ;;
    *) echo "info string unknown command $1" ;;
    esac
done
