#!/usr/bin/env bash
# bootstrap.sh — install the Debian packages cancelaudit needs, and only
# those that are missing. Safe to run any number of times; as root it uses
# apt-get directly, otherwise sudo when there is one.
set -euo pipefail

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

if [ ${#missing[@]} -eq 0 ]; then
    echo "bootstrap: all ${#packages[@]} dependencies present"
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
