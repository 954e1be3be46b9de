-- Foundation: settings, access control, sessions, audit, and the site table that data scopes refer to.

create table settings (
  key text primary key,
  value jsonb not null
);

create table permissions (
  id serial primary key,
  parent_id integer references permissions(id) on delete cascade,
  name text not null,
  code text not null unique,
  level smallint not null check (level in (1, 2)),
  type text not null default 'menu',
  path text,
  sort integer not null default 0,
  created_at timestamptz not null default now()
);

create table roles (
  id serial primary key,
  name text not null,
  code text not null unique,
  description text,
  parent_id integer references roles(id) on delete set null,
  builtin boolean not null default false,
  role_file_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table role_permissions (
  role_id integer not null references roles(id) on delete cascade,
  permission_id integer not null references permissions(id) on delete cascade,
  primary key (role_id, permission_id)
);

-- Sites ("platforms"). The registry issue adds the per-kind fields.
create table platforms (
  id serial primary key,
  type text not null check (type in ('disaster', 'sideslope', 'tailings', 'reservoir', 'river', 'bridge')),
  name text not null,
  description text,
  manager text,
  lon double precision,
  lat double precision,
  alt double precision,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index platforms_type_idx on platforms(type);

create table users (
  id serial primary key,
  account text not null,
  name text not null,
  phone text,
  email text,
  area text,
  role_id integer not null references roles(id),
  scope_all boolean not null default false,
  enabled boolean not null default true,
  -- md5hex(sha1hex(password)), encrypted with the server secret (AES-256-GCM): the HMAC login key.
  key_enc text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_login_at timestamptz
);
create unique index users_account_uq on users (lower(account));

-- Data scope: the sites a user may see (unless scope_all).
create table user_platforms (
  user_id integer not null references users(id) on delete cascade,
  platform_id integer not null references platforms(id) on delete cascade,
  primary key (user_id, platform_id)
);
create index user_platforms_platform_idx on user_platforms(platform_id);

create table sessions (
  id bigserial primary key,
  token_hash text not null unique,
  user_id integer not null references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  ended_at timestamptz,
  end_reason text,
  ip text,
  user_agent text
);
create index sessions_user_active_idx on sessions(user_id) where ended_at is null;

-- Failed-login bookkeeping, keyed by the account name as typed (also for unknown accounts,
-- so that an unknown account answers exactly like a known one).
create table login_attempts (
  account text primary key,
  day date not null,
  fails integer not null default 0,
  stage smallint not null default 0,
  locked_until timestamptz
);

create table used_signatures (
  hash text primary key,
  expires_at timestamptz not null
);

create table captchas (
  id text primary key,
  answer_hash text not null,
  expires_at timestamptz not null
);

create table login_tickets (
  hash text primary key,
  user_id integer not null references users(id) on delete cascade,
  expires_at timestamptz not null
);

create table audit_log (
  id bigserial primary key,
  at timestamptz not null default now(),
  user_id integer,
  account text,
  action text not null,
  target text,
  detail jsonb,
  ip text
);
create index audit_log_at_idx on audit_log(at desc);
