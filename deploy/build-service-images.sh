#!/usr/bin/env bash
# Builds, without any registry, stand-ins for the public images deploy/compose.yaml names:
# postgres:15-bookworm, redis:7-bookworm and haproxy:2.6-bookworm. One Debian bookworm minbase root
# file system made by mmdebstrap from the machine's Debian mirror with Debian's postgresql-15,
# redis-server and haproxy (the versions those tags carry), imported three times with the entry
# point and command of each public image (the postgres one honours POSTGRES_USER, POSTGRES_PASSWORD
# and POSTGRES_DB on its first start, as the public image does).
#
# Cached like deploy/build-base-image.sh: a label holds the hash of this script.
set -euo pipefail

PODMAN=${PODMAN:-podman --runtime runc}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
POSTGRES=docker.io/library/postgres:15-bookworm
REDIS=docker.io/library/redis:7-bookworm
HAPROXY=docker.io/library/haproxy:2.6-bookworm
stamp=$(sha256sum "$0" | cut -c1-16)

up_to_date() {
  $PODMAN image exists "$1" &&
    [ "$($PODMAN image inspect --format '{{ index .Labels "paygate.base-stamp" }}' "$1")" = "$stamp" ]
}
if up_to_date "$POSTGRES" && up_to_date "$REDIS" && up_to_date "$HAPROXY"; then
  echo "build-service-images: up to date ($stamp)"
  exit 0
fi

work=$(mktemp -d /tmp/paygate-services.XXXXXX)
trap 'rm -rf "$work"' EXIT
started=$(date +%s)
root="$work/rootfs"
mmdebstrap --quiet --variant=minbase --mode=root --format=directory \
  --include=postgresql-15,redis-server,haproxy \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  bookworm "$root" "$MIRROR"
# No Debian cluster: the public image creates none (createcluster.conf), so that PostgreSQL's tools
# (`docker exec ... pg_dump`) find the server on the default port, not a "main" cluster's 5433.
rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"* "$root/var/lib/postgresql/15" "$root/etc/postgresql/15"
mkdir -p "$root/usr/local/etc/haproxy" "$root/var/lib/postgresql/data" "$root/data" "$root/run/postgresql"
chroot "$root" chown postgres:postgres /var/lib/postgresql/data /run/postgresql
chroot "$root" chown redis:redis /data

# The public postgres image's entry point, in what it does for a compose file: initialise the data
# directory on the first start with the given user, password and database, listen on every
# address with password authentication, and run the server as the postgres user.
cat > "$root/usr/local/bin/docker-entrypoint.sh" <<'SCRIPT'
#!/bin/sh
set -eu
export PGDATA=${PGDATA:-/var/lib/postgresql/data}
bin=/usr/lib/postgresql/15/bin
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /run/postgresql
  chown postgres:postgres "$PGDATA" /run/postgresql
  chmod 700 "$PGDATA"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
  user=${POSTGRES_USER:-postgres}
  printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pwfile
  chown postgres /tmp/pwfile
  as_postgres "$bin/initdb" --username="$user" --pwfile=/tmp/pwfile --auth-host=scram-sha-256 --auth-local=trust >/dev/null
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.auto.conf"
  if [ -n "${POSTGRES_DB:-}" ] && [ "$POSTGRES_DB" != "$user" ] || [ "$user" != postgres ]; then
    as_postgres "$bin/pg_ctl" -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    as_postgres "$bin/psql" -v ON_ERROR_STOP=1 --username="$user" --dbname=postgres \
      -c "CREATE DATABASE \"${POSTGRES_DB:-$user}\"" >/dev/null
    as_postgres "$bin/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null
  fi
fi
if [ "$1" = postgres ]; then
  shift
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$bin/postgres" "$@"
fi
exec "$@"
SCRIPT
chmod 0755 "$root/usr/local/bin/docker-entrypoint.sh"
ln -s /usr/lib/postgresql/15/bin/pg_isready "$root/usr/local/bin/pg_isready"

tar -C "$root" -c . > "$work/rootfs.tar"
$PODMAN import --change "LABEL paygate.base-stamp=$stamp" \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV PGDATA=/var/lib/postgresql/data' \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' --change 'CMD ["postgres"]' \
  --change 'EXPOSE 5432' --change 'STOPSIGNAL SIGINT' \
  "$work/rootfs.tar" "$POSTGRES" >/dev/null
$PODMAN import --change "LABEL paygate.base-stamp=$stamp" \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'WORKDIR /data' --change 'USER redis' \
  --change 'CMD ["redis-server", "--protected-mode", "no"]' --change 'EXPOSE 6379' \
  "$work/rootfs.tar" "$REDIS" >/dev/null
$PODMAN import --change "LABEL paygate.base-stamp=$stamp" \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'STOPSIGNAL SIGUSR1' --change 'USER haproxy' \
  --change 'CMD ["haproxy", "-W", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]' \
  "$work/rootfs.tar" "$HAPROXY" >/dev/null
echo "build-service-images: built in $(($(date +%s) - started)) s ($stamp)"
