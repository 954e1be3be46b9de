-- Issue 15 hardening of sign-in: an absolute session lifetime, one open session per account, and a
-- per-address throttle of password evaluations.

-- Absolute lifetime: a login sets it from SESSION_MAX_HOURS. The default covers sessions made without a
-- login (the demo seed) and the sessions open before this migration.
alter table sessions add column expires_at timestamptz;
update sessions set expires_at = created_at + interval '12 hours';
alter table sessions alter column expires_at set default now() + interval '12 hours';
alter table sessions alter column expires_at set not null;

-- One open session per account. A login replaces the open one in a transaction that locks the user's
-- row; this index holds the rule for any writer. Older duplicates (left open by idle expiry) end first.
update sessions s set ended_at = now(), end_reason = 'idle'
where s.ended_at is null
  and exists (select 1 from sessions n where n.user_id = s.user_id and n.ended_at is null and n.id > s.id);
drop index sessions_user_active_idx;
create unique index sessions_one_open_per_user on sessions(user_id) where ended_at is null;

-- Login throttle per client address: a token bucket (LOGIN_RATE_PER_MINUTE tokens, refilled at that
-- rate). `granted` tells the statement that took a token whether it got one.
create table login_rate (
  ip text primary key,
  tokens double precision not null,
  at timestamptz not null,
  granted boolean not null
);

-- Lockout counted before the password is checked (login_attempts keeps its meaning: failures since the last
-- right password, and the lock). The attempt that sets a lock does so before its own password is known; until
-- it is, the lock is provisional (settled = false) and parallel attempts wait for it rather than answer "locked"
-- (a right password deletes the row).
alter table login_attempts add column settled boolean not null default true;
