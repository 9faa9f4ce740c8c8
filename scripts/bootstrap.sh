#!/usr/bin/env bash
# bootstrap.sh — install the Debian packages cancelaudit needs, and only
# those that are missing. Safe to run any number of times; as root it uses
# apt-get directly, otherwise sudo when there is one.
#
# Then the test-only npm tools of tests/ci (the SARIF validator) into
# build-tools/ under the repository root, as the invoking user: see
# install_test_tools below.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# package[:command,...] — the commands, when all present, also satisfy the
# entry (node and npm may come from another source than Debian's packages;
# gcc and make may be there without the build-essential metapackage).
packages=(
    build-essential:gcc,make
    cmake
    pkg-config
    libtree-sitter-dev
    libsqlite3-dev
    sqlite3
    libclang-dev
    clang
    libclang-rt-14-dev
    llvm
    valgrind
    python3
    git
    nodejs:node
    npm:npm
    ca-certificates
    chromium
)

installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

have_commands() {
    local cmd
    [ -n "$1" ] || return 1
    for cmd in ${1//,/ }; do
        command -v "$cmd" >/dev/null 2>&1 || return 1
    done
}

missing=()
for entry in "${packages[@]}"; do
    pkg=${entry%%:*}
    cmds=""
    [ "$pkg" = "$entry" ] || cmds=${entry#*:}
    installed "$pkg" || have_commands "$cmds" || missing+=("$pkg")
done

# @microsoft/sarif-multitool validates `--format sarif` in tests/ci. It is a
# self-contained .NET program shipped through npm, so it goes into a
# project-local, gitignored folder: never a global install, never a download
# outside the npm client. tests/ci/package.json and its lock pin the version
# and the tarballs' integrity; `npm ci` installs exactly that. A current
# install is left alone. Without registry access this only warns: the build
# does not need the tool, and the SARIF test then fails saying what to run.
install_test_tools() {
    local tools="$root/build-tools" lock="$root/tests/ci/package-lock.json"
    local plat
    case "$(uname -s)" in
        Linux) plat=linux ;;
        Darwin) plat=darwin ;;
        *) echo "bootstrap: no sarif-multitool build for $(uname -s); the SARIF test will fail" >&2; return 0 ;;
    esac
    local exe="$tools/node_modules/@microsoft/sarif-multitool-$plat/Sarif.Multitool"
    if cmp -s "$lock" "$tools/package-lock.json" && [ -x "$exe" ]; then
        echo "bootstrap: sarif-multitool present ($tools)"
        return 0
    fi
    if ! command -v npm >/dev/null 2>&1; then
        echo "bootstrap: npm missing; cannot install sarif-multitool (the SARIF test will fail)" >&2
        return 0
    fi
    mkdir -p "$tools"
    cp "$root/tests/ci/package.json" "$lock" "$tools/"
    # --ignore-scripts: the only install script is a chmod, done here.
    if ! npm ci --prefix "$tools" --ignore-scripts --no-audit --no-fund --loglevel=error; then
        rm -f "$tools/package-lock.json" # not current: the next run retries
        echo "bootstrap: npm ci of sarif-multitool failed (the SARIF test will fail)" >&2
        return 0
    fi
    if [ ! -f "$exe" ]; then
        echo "bootstrap: npm ci did not install $exe (the SARIF test will fail)" >&2
        return 0
    fi
    chmod u+x "$exe"
    echo "bootstrap: sarif-multitool installed ($tools)"
}

if [ ${#missing[@]} -eq 0 ]; then
    echo "bootstrap: all ${#packages[@]} dependencies present"
    install_test_tools
    exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "bootstrap: missing ${missing[*]}; run as root or install sudo" >&2
        exit 1
    fi
fi

echo "bootstrap: installing ${missing[*]}"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
echo "bootstrap: done"
install_test_tools
