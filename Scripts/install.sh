#!/usr/bin/env bash
# Builds a release gh-users and installs it with its shell completions and man pages (gh-users(1) and one
# page per command, gh-users-COMMAND(1), in share/man/man1).
#
#   Scripts/install.sh                 # into /usr/local (PREFIX)
#   PREFIX=$HOME/.local Scripts/install.sh   # or Scripts/install.sh --prefix=$HOME/.local
#   DESTDIR=/tmp/pkg Scripts/install.sh   # staged, for packagers
#   Scripts/install.sh --binary=PATH   # install a gh-users built elsewhere instead of building one
#   Scripts/install.sh --check         # only say what the build needs and what would be run
#   Scripts/install.sh --yes           # install libcurl's development files, if missing, without asking
#   Scripts/install.sh --uninstall     # remove what it installed under PREFIX (DESTDIR); --check lists it
#
# On Linux the Swift standard library and Foundation are linked statically, so the binary runs without a
# Swift toolchain; it still needs libcurl 4, libstdc++ and libgcc_s at run time (Debian and Ubuntu: libcurl4,
# libstdc++6, libgcc-s1). The static build needs libcurl's development files. When they are missing, the script
# asks apt what installing libcurl4-openssl-dev would do and says so. It never upgrades an installed package:
# where apt would (the development files of a newer libcurl than the one installed), it names the packages and
# stops. Otherwise it asks on a terminal before it runs 'apt-get install --no-upgrade' (through sudo when not
# root); --yes answers yes, and without a terminal or --yes it stops and says what to run. apt's output goes to
# stderr. Set NO_APT=1 to never run apt-get.
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
check_only=""
prebuilt=""
assume_yes=""
uninstall=""
# Where libcurl's headers are looked for: /usr/include/curl, or a multiarch folder such as
# /usr/include/x86_64-linux-gnu/curl (where Debian and Ubuntu put them). Tests point it elsewhere.
include_root=${CURL_INCLUDE_ROOT:-/usr/include}
for argument in "$@"; do
    case "$argument" in
        --prefix=*) PREFIX=${argument#--prefix=} ;;
        --binary=*) prebuilt=${argument#--binary=}; [[ $prebuilt == /* ]] || prebuilt=$caller/$prebuilt ;;
        --check) check_only=1 ;;
        -y | --yes) assume_yes=1 ;;
        --uninstall) uninstall=1 ;;
        -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "error: unknown argument '$argument' (try --help)" >&2; exit 64 ;;
    esac
done

# What an install put under $1 and is there: the binary, the three completion scripts, and the man pages
# gh-users wrote (their .TH line names the "gh-users Manual"; another tool's gh-users-*.1 is not one of them).
installed_files() {
    local file
    for file in "$1/bin/gh-users" "$1/share/bash-completion/completions/gh-users" \
        "$1/share/zsh/site-functions/_gh-users" "$1/share/fish/vendor_completions.d/gh-users.fish"; do
        [ -e "$file" ] && echo "$file"
    done
    for file in "$1"/share/man/man1/gh-users.1 "$1"/share/man/man1/gh-users-*.1; do
        [ -f "$file" ] && head -n 1 "$file" | grep -q '"gh-users Manual"$' && echo "$file"
    done
    return 0
}

if [ -n "$uninstall" ]; then
    mapfile -t files < <(installed_files "$DESTDIR$PREFIX")
    if [ -n "$check_only" ]; then
        echo "Would remove ${#files[@]} files of gh-users from $DESTDIR$PREFIX:" >&2
        [ ${#files[@]} -eq 0 ] || printf '  %s\n' "${files[@]}" >&2
        exit 0
    fi
    [ ${#files[@]} -eq 0 ] || rm -f -- "${files[@]}"
    echo "Removed ${#files[@]} files of gh-users from $DESTDIR$PREFIX; its response cache is where 'gh-users cache" \
        "info' said (\${XDG_CACHE_HOME:-~/.cache}/gh-users by default), for you to remove" >&2
    exit 0
fi

have_curl_headers() {
    local header
    for header in "$include_root"/curl/curl.h "$include_root"/*/curl/curl.h; do
        [ -f "$header" ] && return 0
    done
    return 1
}

# What `apt-get install --no-upgrade PACKAGE` would do, from apt's simulation: sets `planned_new` (packages it
# would newly install) and `planned_upgrades` (installed packages it would replace, "name old → new"). Fails
# when apt cannot plan it (no such package in its lists).
plan_install() {
    local line upgrade='^Inst ([^ ]+) \[([^] ]+)\] \(([^ ]+)' new='^Inst ([^ ]+) \(([^ ]+)'
    planned_new=()
    planned_upgrades=()
    local simulation
    simulation=$(apt-get install -s --no-upgrade "$1" 2>&1) || return 1
    while IFS= read -r line; do
        if [[ $line =~ $upgrade ]]; then
            planned_upgrades+=("${BASH_REMATCH[1]} ${BASH_REMATCH[2]} → ${BASH_REMATCH[3]}")
        elif [[ $line =~ $new ]]; then
            planned_new+=("${BASH_REMATCH[1]} ${BASH_REMATCH[2]}")
        fi
    done <<<"$simulation"
}

install_curl_headers() {
    local package=libcurl4-openssl-dev sudo="" refresh=""
    local command="apt-get install --no-upgrade -y $package"
    echo "The static build needs libcurl's development files, which are missing under $include_root." >&2
    if [ -n "${NO_APT:-}" ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "error: install them (Debian and Ubuntu: $package; Fedora: libcurl-devel), then run" \
            "this script again" >&2
        exit 1
    fi
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    if ! plan_install "$package"; then
        # A fresh system (a container) has empty package lists: refreshing them changes no installed package.
        refresh=1
        echo "apt's package lists do not name $package yet: they are refreshed first ('apt-get update')." >&2
    elif [ ${#planned_upgrades[@]} -gt 0 ]; then
        echo "error: installing $package would upgrade packages that are installed:" >&2
        printf '  %s\n' "${planned_upgrades[@]}" >&2
        echo "This script never upgrades what is installed: run '${sudo:+sudo }apt-get install $package' yourself" \
            "if you accept the upgrades, or install a gh-users built elsewhere with --binary=PATH." >&2
        exit 1
    else
        echo "It will install: ${planned_new[*]:-$package} (nothing installed is upgraded)." >&2
    fi
    if [ -n "$check_only" ]; then
        echo "Would run: ${sudo:+sudo }${refresh:+apt-get update, then }$command" >&2
        exit 0
    fi
    if [ -z "$assume_yes" ]; then
        if [ ! -t 0 ]; then
            echo "error: not installed without asking: run this script again with --yes, or run" \
                "'${sudo:+sudo }$command' yourself (NO_APT=1 to install them another way)" >&2
            exit 1
        fi
        read -r -p "Run '${sudo:+sudo }$command' now? [y/N] " answer
        case "$answer" in
            [yY] | [yY][eE][sS]) ;;
            *) echo "error: not installed; run '${sudo:+sudo }$command' yourself, then this script again" >&2; exit 1 ;;
        esac
    fi
    export DEBIAN_FRONTEND=noninteractive
    if [ -n "$refresh" ]; then
        echo "Running: ${sudo:+sudo }apt-get update" >&2
        $sudo apt-get update >&2
        plan_install "$package" || { echo "error: apt knows no package $package" >&2; exit 1; }
        if [ ${#planned_upgrades[@]} -gt 0 ]; then
            echo "error: installing $package would upgrade installed packages (${planned_upgrades[*]});" \
                "this script never does: run '${sudo:+sudo }apt-get install $package' yourself" >&2
            exit 1
        fi
    fi
    echo "Running: ${sudo:+sudo }$command" >&2
    $sudo apt-get install --no-upgrade -y "$package" >&2
    have_curl_headers || { echo "error: $package is installed but no curl/curl.h is under $include_root" >&2; exit 1; }
}

# Each folder the install writes into, or the nearest one there to make it in, must be writable: checked before
# any build, and by --check, so that a user without root learns it at once (the build ran, then install -d
# failed on /usr/local, after --check had said "Ready").
root="$DESTDIR$PREFIX"
for folder in "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
    "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"; do
    while [ ! -e "$folder" ]; do folder=$(dirname "$folder"); done
    if [ ! -d "$folder" ] || [ ! -w "$folder" ]; then
        echo "error: cannot install into $root: $folder is not a folder $(id -un) can write to; run it as root" \
            "(sudo), or give PREFIX=\$HOME/.local" >&2
        exit 1
    fi
done

if [ -n "$prebuilt" ]; then
    [ -x "$prebuilt" ] || { echo "error: --binary=$prebuilt is not an executable file" >&2; exit 64; }
    bin=$prebuilt
    if [ -n "$check_only" ]; then
        echo "Ready: install $bin into $DESTDIR$PREFIX" >&2
        exit 0
    fi
else
    source Scripts/toolchain.sh
    build_flags=(-c release --product gh-users)
    if [ "$(uname -s)" = Linux ]; then
        have_curl_headers || install_curl_headers
        build_flags+=(--static-swift-stdlib)
    fi
    if [ -n "$check_only" ]; then
        echo "Ready: swift build ${build_flags[*]}, then install into $DESTDIR$PREFIX" >&2
        exit 0
    fi
    swift build "${build_flags[@]}"
    bin="$(swift build -c release --show-bin-path)/gh-users"
fi

install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
    "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
install -m 0755 -s "$bin" "$root/bin/gh-users"
"$bin" completion bash >"$root/share/bash-completion/completions/gh-users"
"$bin" completion zsh >"$root/share/zsh/site-functions/_gh-users"
"$bin" completion fish >"$root/share/fish/vendor_completions.d/gh-users.fish"
Scripts/make-manpage "$bin" "$root/share/man/man1"
echo "Installed gh-users $("$bin" --version | awk '{print $2}') into $root" >&2
# A first install into ~/.local: Debian's ~/.profile puts ~/.local/bin on PATH only at a login after it exists.
if [ -z "$DESTDIR" ]; then
    case ":$PATH:" in
        *":$root/bin:"*) ;;
        *) echo "note: $root/bin is not on PATH: add it (export PATH=\"$root/bin:\$PATH\" in your shell's" \
            "profile), or log in again if your profile adds it once it exists" >&2 ;;
    esac
fi
