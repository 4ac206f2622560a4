# Sourced by scripts/lab and scripts/test: make (once) and reuse the project's virtual
# environment in .venv, and install the kit into it only when pyproject.toml changed.
# Never installs into the machine's own Python (Debian and Ubuntu refuse that: PEP 668).
#
#   kit_venv EXTRAS     e.g. kit_venv "" or kit_venv "test"
#
# Afterwards $KIT_PYTHON is the environment's interpreter.

kit_find_python() {
    # The first python3 (3.10 or newer) on PATH, trying versioned names too.
    local candidate
    for candidate in "${KIT_BASE_PYTHON:-}" python3 python3.13 python3.12 python3.11 python3.10; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

kit_as_root() {
    # Run a command as root: directly when we are root, through sudo otherwise.
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        return 1
    fi
}

kit_stamp_covers() {
    # Whether an install recorded as $1 gives what $2 asks for: the same pyproject.toml,
    # and the same extras or more ("test" includes "lab", which includes the plain kit).
    local have="$1" want="$2"
    [ "$have" = "$want" ] && return 0
    [ "${have%extras=*}" = "${want%extras=*}" ] || return 1
    case "${have##*extras=}:${want##*extras=}" in
        test:lab | test: | lab:) return 0 ;;
    esac
    return 1
}

kit_venv() {
    local extras="$1" venv="$PWD/.venv" base stamp wanted spec
    if [ ! -x "$venv/bin/python" ]; then
        if ! base=$(kit_find_python); then
            echo "The kit needs Python 3.10 or newer as python3; none was found on PATH." >&2
            return 1
        fi
        echo "Creating the kit's virtual environment in .venv with $("$base" --version 2>&1)..."
        if ! "$base" -m venv "$venv" >/dev/null 2>&1; then
            rm -rf "$venv"
            # Debian and Ubuntu ship venv separately (python3-venv / python3.X-venv).
            local venv_package
            venv_package="python3.$("$base" -c 'import sys; print(sys.version_info[1])')-venv"
            echo "Python's venv module is missing; installing $venv_package with apt-get..."
            if command -v apt-get >/dev/null 2>&1 &&
                kit_as_root apt-get update -qq &&
                DEBIAN_FRONTEND=noninteractive kit_as_root apt-get install -y -qq "$venv_package" >/dev/null; then
                "$base" -m venv "$venv"
            else
                echo "Could not create .venv: install your system's python3-venv package, then run this again." >&2
                return 1
            fi
        fi
    fi
    KIT_PYTHON="$venv/bin/python"
    spec="."
    [ -n "$extras" ] && spec=".[$extras]"
    stamp="$venv/.kit-installed"
    wanted="$(cat pyproject.toml)"$'\n'"extras=$extras"
    if [ -f "$stamp" ] && kit_stamp_covers "$(cat "$stamp")" "$wanted"; then
        [ -n "${KIT_QUIET:-}" ] || echo "Using the kit's virtual environment in .venv (up to date)."
        return 0
    fi
    echo "Installing the kit${extras:+ with its $extras extras} into .venv (only when pyproject.toml changes)..."
    "$KIT_PYTHON" -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
    # pip's own chatter (build back-end notices, index warnings) is shown only when it fails.
    local log
    log=$(mktemp)
    if ! "$KIT_PYTHON" -m pip install --quiet --disable-pip-version-check -e "$spec" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "Could not install the kit into .venv (pip's message is above): check the network, then run this again." >&2
        return 1
    fi
    rm -f "$log"
    printf '%s' "$wanted" >"$stamp"
}
