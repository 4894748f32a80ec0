#!/bin/sh
# The test's stand-in for the official postgres image's docker-entrypoint.sh, as far as
# compose.postgres.yaml relies on it: on an empty PGDATA, initdb with POSTGRES_USER as the superuser
# and POSTGRES_PASSWORD as its password, create POSTGRES_DB, accept password (SCRAM) logins from any
# address and listen on every interface; then run the command. dash only: no other tool is in the image.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\n' "$POSTGRES_PASSWORD" | initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=/dev/stdin \
    -A scram-sha-256 -E UTF8 --locale=C >/dev/null
  if [ "$POSTGRES_DB" != postgres ]; then
    printf 'CREATE DATABASE "%s" OWNER "%s"\n' "$POSTGRES_DB" "$POSTGRES_USER" | postgres --single -D "$PGDATA" postgres >/dev/null
  fi
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
fi
exec "$@"
