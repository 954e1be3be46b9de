-- Alert notifications (issue 5, scope item 3): contacts, contact groups, templates, colour levels and the outbox.
-- The outbox does not reference the alerts table (feature `alerts`, 0009) by foreign key: a delivery record
-- outlives the alert it reported, and the two features land independently.

-- A person who is told about alerts (spec: alertContract). At least one address: phone (SMS, voice) or email.
create table alert_contacts (
  id serial primary key,
  name text not null,
  phone text,
  email text,
  language text not null default 'en' check (language in ('en', 'zh', 'ko')),
  person_id integer references responsible_persons(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (phone is not null or email is not null)
);
create index alert_contacts_person_idx on alert_contacts (person_id);

-- A contact group (spec: alertGroup): members, and the sites it covers (none: every site).
create table alert_groups (
  id serial primary key,
  name text not null unique,
  description text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create table alert_group_contacts (
  group_id integer not null references alert_groups(id) on delete cascade,
  contact_id integer not null references alert_contacts(id) on delete cascade,
  primary key (group_id, contact_id)
);
create index alert_group_contacts_contact_idx on alert_group_contacts (contact_id);
create table alert_group_platforms (
  group_id integer not null references alert_groups(id) on delete cascade,
  platform_id integer not null references platforms(id) on delete cascade,
  primary key (group_id, platform_id)
);
create index alert_group_platforms_platform_idx on alert_group_platforms (platform_id);

-- A message template (spec: AlertTemplate): SMS template code (for the gateway) and per-language text with
-- placeholders {site} {device} {quantity} {value} {level} {time} {threshold} {suggestion}.
-- subject/content: {"en": "...", "zh": "...", "ko": "..."} (at least one language).
create table alert_templates (
  id serial primary key,
  name text not null unique,
  sms_template_code text,
  subject jsonb not null default '{}',
  content jsonb not null,
  is_default boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index alert_templates_one_default on alert_templates (is_default) where is_default;

-- Colour levels (spec: AlertConfigure): 1 blue, 2 yellow, 3 orange, 4 red; members are told about every alert
-- of the level; the suggestion goes into the message ({suggestion}).
create table alert_levels (
  level integer primary key check (level between 1 and 4),
  suggestion jsonb not null default '{}',
  template_id integer references alert_templates(id) on delete set null,
  updated_at timestamptz not null default now()
);
insert into alert_levels (level) values (1), (2), (3), (4);
create table alert_level_contacts (
  level integer not null references alert_levels(level) on delete cascade,
  contact_id integer not null references alert_contacts(id) on delete cascade,
  primary key (level, contact_id)
);
create index alert_level_contacts_contact_idx on alert_level_contacts (contact_id);

-- The outbox: one row per (alert event, channel, recipient address); the worker sends due rows.
create table notification_outbox (
  id bigserial primary key,
  alert_id integer not null,
  event_seq integer not null,
  platform_id integer,
  level integer not null,
  channel text not null check (channel in ('mail', 'networkSms', 'localSms', 'sms', 'voice')),
  recipient text not null,
  contact_id integer references alert_contacts(id) on delete set null,
  recipient_name text not null,
  language text not null check (language in ('en', 'zh', 'ko')),
  template_code text,
  subject text not null,
  body text not null,
  state text not null default 'pending' check (state in ('pending', 'sending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  constraint notification_outbox_dedupe unique (alert_id, event_seq, channel, recipient)
);
create index notification_outbox_due_idx on notification_outbox (next_attempt_at) where state in ('pending', 'sending');
create index notification_outbox_alert_idx on notification_outbox (alert_id);

-- When each alert was last notified, at which level and at which hit count (alerts.count): a persisting
-- alert (new hits) is notified again once its push interval has passed; escalation notifies at once.
create table alert_notification_marks (
  alert_id integer primary key,
  last_at timestamptz not null,
  last_level integer not null,
  notified_count integer not null default 0,
  repeats integer not null default 0
);
