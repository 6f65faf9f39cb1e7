#!/usr/bin/env bash
# Builds, without any registry, a stand-in for the public image node:20-bookworm-slim, so that
# deploy/Containerfile builds unchanged here (`podman build --pull=never`): a Debian bookworm
# minbase root file system made by mmdebstrap from the machine's Debian mirror, this machine's
# Node 20 binary (everything it links against is in minbase), npm 10.8.2 (what the public Node 20
# images ship) from the npm registry, and the `node` user (uid 1000) the public image has.
#
# Cached: the image carries a label with the hash of this script and of the node binary; when an
# image with the same label exists, nothing is rebuilt (the test and CI call this every run).
#
#   deploy/build-base-image.sh            build (or keep) localhost/node:20-bookworm-slim
#   PODMAN="podman --runtime runc" ...    the podman command to use (the default)
set -euo pipefail

IMAGE=docker.io/library/node:20-bookworm-slim
NPM_VERSION=10.8.2
PODMAN=${PODMAN:-podman --runtime runc}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

node_bin=$(command -v node)
case "$("$node_bin" --version)" in
  v20.*) ;;
  *) echo "build-base-image: needs this machine's node to be version 20 (found $("$node_bin" --version))" >&2; exit 1 ;;
esac
stamp=$(cat "$0" "$node_bin" | sha256sum | cut -c1-16)

if $PODMAN image exists "$IMAGE" &&
  [ "$($PODMAN image inspect --format '{{ index .Labels "paygate.base-stamp" }}' "$IMAGE")" = "$stamp" ]; then
  echo "build-base-image: $IMAGE is up to date ($stamp)"
  exit 0
fi

work=$(mktemp -d /tmp/paygate-base.XXXXXX)
trap 'rm -rf "$work"' EXIT
started=$(date +%s)

echo "build-base-image: npm $NPM_VERSION from the registry"
(cd "$work" && npm pack "npm@$NPM_VERSION" --silent >/dev/null)

echo "build-base-image: bookworm minbase from $MIRROR"
# Merged /usr as Debian's own images have it (symlinks and the tiny usr-is-merged package): left
# to itself, apt satisfies init-system-helpers' "usrmerge | usr-is-merged" with usrmerge, which
# pulls in perl, libperl5.36 and perl-modules-5.36 (48 MB that debian:bookworm-slim, and so the
# public node image, does not have).
mmdebstrap --quiet --variant=minbase --mode=root --format=directory \
  --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  bookworm "$work/rootfs" "$MIRROR"

root="$work/rootfs"
install -m 0755 "$node_bin" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"*

tar -C "$root" -c . |
  $PODMAN import \
    --change 'ENV NODE_VERSION='"$("$node_bin" --version | cut -c2-)" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'LABEL paygate.base-stamp='"$stamp" \
    --change 'CMD ["node"]' \
    - "$IMAGE" >/dev/null
echo "build-base-image: $IMAGE built in $(($(date +%s) - started)) s ($stamp)"
