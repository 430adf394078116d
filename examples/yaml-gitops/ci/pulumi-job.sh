#!/usr/bin/env bash
# The Pulumi step of the workflow's jobs, run in the project's folder:
#
#   ci/pulumi-job.sh preview STACK   the pull request's job: `pulumi preview`, and the text of the pull request's
#                                    comment in $PREVIEW_COMMENT (default $RUNNER_TEMP/pulumi-preview.md), also added
#                                    to the job's summary
#   ci/pulumi-job.sh up STACK        the merge's job: `pulumi up`, waiting while another update holds the stack
#
# Settings (environment):
#   PULUMI_BACKEND_URL        the state backend (s3://..., postgres://...); empty: Pulumi Cloud with PULUMI_ACCESS_TOKEN
#   PULUMI_CONFIG_PASSPHRASE  the passphrase of the stack's secrets (backends other than Pulumi Cloud)
#   PULUMI_LOCK_WAIT          seconds `up` waits for another update's lock before failing (default 600)
#   PULUMI_UPDATE_MESSAGE     the update's message in the stack's history
#   PGCONNECT_TIMEOUT         seconds to connect to a PostgreSQL backend (default 20)
#
# Everything is checked before the backend is written to: a setting missing, a backend that does not answer or
# refuses the login, a stack that does not exist fail the job at once, naming the setting. The backend URL's password
# is masked in the job's log and never printed.
set -euo pipefail

usage() {
  echo "usage: $0 preview|up STACK" >&2
  exit 2
}
[ $# -eq 2 ] || usage
command="$1"
stack="$2"
case "$command" in preview | up) ;; *) usage ;; esac

fail() {
  echo "::error::$*"
  exit 1
}

# GitHub passes a secret that is not set as an empty value; the CLI would take an empty passphrase for one.
for name in PULUMI_BACKEND_URL PULUMI_ACCESS_TOKEN PULUMI_CONFIG_PASSPHRASE PULUMI_CONFIG_PASSPHRASE_FILE; do
  if [ -z "${!name:-}" ]; then unset "$name"; fi
done

# The backend URL's password, as written and decoded, is masked before anything else runs; messages show the URL
# without it.
backend_shown=""
if [ -n "${PULUMI_BACKEND_URL:-}" ]; then
  parsed="$(node -e '
    let url;
    try { url = new URL(process.env.PULUMI_BACKEND_URL); } catch { process.exit(3); }
    const escape = (v) => v.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
    if (url.password) {
      let decoded = url.password;
      try { decoded = decodeURIComponent(url.password); } catch {}
      for (const secret of new Set([url.password, decoded])) console.log(`::add-mask::${escape(secret)}`);
      url.password = "***";
    }
    console.log(url.href);
  ')" || fail "PULUMI_BACKEND_URL is not a URL (s3://bucket, postgres://user:password@host:5432/database?sslmode=verify-full, ...)"
  mask_lines="${parsed%$'\n'*}"
  if [ "$mask_lines" != "$parsed" ]; then printf '%s\n' "$mask_lines"; fi
  backend_shown="${parsed##*$'\n'}"
fi

# The settings the job needs.
if [ -z "${PULUMI_BACKEND_URL:-}" ] && [ -z "${PULUMI_ACCESS_TOKEN:-}" ]; then
  fail "No state backend: set PULUMI_BACKEND_URL (a repository variable for S3, a repository secret for PostgreSQL), or the repository secret PULUMI_ACCESS_TOKEN for Pulumi Cloud."
fi
settings="Pulumi.$stack.yaml"
if [ -n "${PULUMI_BACKEND_URL:-}" ] && [[ "$PULUMI_BACKEND_URL" != http://* && "$PULUMI_BACKEND_URL" != https://* ]]; then
  # Outside Pulumi Cloud, the stack's secrets are encrypted with a passphrase unless its settings name a key service.
  provider="$(sed -n 's/^secretsprovider:[[:space:]]*//p' "$settings" 2>/dev/null | tr -d '"'"'" || true)"
  if [ -z "$provider" ] || [ "$provider" = passphrase ]; then
    if [ -z "${PULUMI_CONFIG_PASSPHRASE:-}" ] && [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then
      fail "PULUMI_CONFIG_PASSPHRASE is not set: stack $stack encrypts its secrets with a passphrase (set the repository secret PULUMI_CONFIG_PASSPHRASE to the one it was created with)."
    fi
  fi
fi

# The backend answers, takes the login, and holds the stack; read only.
export PGCONNECT_TIMEOUT="${PGCONNECT_TIMEOUT:-20}"
where="${backend_shown:-Pulumi Cloud (PULUMI_ACCESS_TOKEN)}"
setting="PULUMI_BACKEND_URL"
if [ -z "${PULUMI_BACKEND_URL:-}" ]; then setting="PULUMI_ACCESS_TOKEN"; fi
if ! stacks="$(pulumi stack ls --json --non-interactive)"; then
  fail "The state backend of $setting, $where, did not answer or refused the login (the error above); nothing was changed."
fi
if ! STACKS="$stacks" STACK="$stack" node -e '
  const names = JSON.parse(process.env.STACKS).map((s) => s.name);
  const wanted = process.env.STACK;
  process.exit(names.some((n) => n === wanted || n.endsWith(`/${wanted}`)) ? 0 : 1);
'; then
  fail "The state backend of $setting, $where, holds no stack $stack: create it once, as the README's Set up says (pulumi stack init $stack)."
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT

# Runs the CLI with its output in the log as well; the CLI's secrets passphrase message names no setting.
pulumi_logged() {
  local status=0
  pulumi "$@" --stack "$stack" --non-interactive 2>&1 | tee "$log" || status=$?
  if [ "$status" -ne 0 ] && grep -q "incorrect passphrase" "$log"; then
    echo "::error::PULUMI_CONFIG_PASSPHRASE is not the passphrase stack $stack was created with; nothing was changed."
  fi
  return "$status"
}

case "$command" in
  preview)
    comment="${PREVIEW_COMMENT:-${RUNNER_TEMP:-/tmp}/pulumi-preview.md}"
    status=0
    pulumi_logged preview --diff --color never || status=$?
    {
      if [ "$status" -eq 0 ]; then
        echo "#### \`pulumi preview\` of \`$stack\`"
        echo
        # The summary the CLI closes with: the changes by kind.
        sed -n '/^Resources:/,/^$/p' "$log" | sed 's/^/    /'
      else
        echo "#### \`pulumi preview\` of \`$stack\` failed"
      fi
      echo
      echo "<details><summary>What the CLI printed</summary>"
      echo
      echo '```diff'
      # A comment holds 65,536 characters at most.
      tail -c 60000 "$log"
      echo '```'
      echo "</details>"
    } > "$comment"
    if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$comment" >> "$GITHUB_STEP_SUMMARY"; fi
    exit "$status"
    ;;
  up)
    wait_limit="${PULUMI_LOCK_WAIT:-600}"
    started=$SECONDS
    args=(up --yes)
    if [ -n "${PULUMI_UPDATE_MESSAGE:-}" ]; then args+=(--message "$PULUMI_UPDATE_MESSAGE"); fi
    while true; do
      status=0
      pulumi_logged "${args[@]}" || status=$?
      if [ "$status" -eq 0 ]; then exit 0; fi
      # Locked by another update (a DIY backend's lock file, Pulumi Cloud's update in progress): nothing was done.
      if ! grep -q -e "the stack is currently locked" -e "Another update is currently in progress" "$log"; then exit "$status"; fi
      waited=$((SECONDS - started))
      if [ "$waited" -ge "$wait_limit" ]; then
        fail "Stack $stack is still locked by another update after ${waited} s (PULUMI_LOCK_WAIT=$wait_limit). If none runs, the lock is that of a job killed outright: remove it with \`pulumi cancel\` (the README says how), then re-run this job."
      fi
      pause=$((10 + RANDOM % 10))
      echo "Stack $stack is locked by another update; trying again in $pause s (waited ${waited} s of PULUMI_LOCK_WAIT=$wait_limit)."
      sleep "$pause"
    done
    ;;
esac
