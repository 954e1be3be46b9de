-- Safety supervision (issue 20, scope 4 to 6; spec §2 /archives): dynamic supervision (inspections of any site),
-- plan management (plans with versions, approval, validity and drills) and security file management (folders and
-- documents with versions and expiry dates), and the reminders sent before a plan or a certificate expires.
-- Everything belongs to a site and is removed with it. File ids name rows of `files` (0004), uploaded for the site.
-- Depends on 0001 (users), 0002 (platforms), 0010 (alert contacts: who is reminded, in their language).

-- An inspection of a site: the items checked ([{name, result ok|problem, note}]), the problems found
-- ([{description, photos: [file id]}]), the rectification required and its deadline, and the rectification
-- state of the shared model (completed or incomplete, as tailings supervision records; 0008).
create table archive_inspections (
  id serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  inspection_date date not null,
  inspector text not null,
  items jsonb not null default '[]'::jsonb,
  problems jsonb not null default '[]'::jsonb,
  problem_count integer not null default 0 check (problem_count >= 0),
  requirement text,
  deadline date,
  state text not null default 'incomplete' check (state in ('completed', 'incomplete')),
  completed_date date,
  result text,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (state = 'incomplete' or completed_date is not null),
  check (deadline is null or deadline >= inspection_date),
  check (completed_date is null or completed_date >= inspection_date)
);
create index archive_inspections_site_date_idx on archive_inspections (platform_id, inspection_date desc, id desc);
create index archive_inspections_date_idx on archive_inspections (inspection_date desc, id desc);
create index archive_inspections_state_deadline_idx on archive_inspections (state, deadline);

-- A plan of a site (emergency or prevention) and who is reminded before it expires.
create table archive_plans (
  id serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  kind text not null check (kind in ('emergency', 'prevention')),
  name text not null check (length(name) between 1 and 200),
  contact_id integer references alert_contacts(id) on delete set null,
  remind_days integer not null default 30 check (remind_days between 1 and 365),
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index archive_plans_site_idx on archive_plans (platform_id);

-- The versions of a plan, numbered 1, 2, ...; an approved version is never changed (a new version is added).
-- approved_by_name keeps the approver's name when the account is gone.
create table archive_plan_versions (
  id serial primary key,
  plan_id integer not null references archive_plans(id) on delete cascade,
  version integer not null check (version >= 1),
  valid_from date not null,
  valid_to date not null,
  summary text,
  files jsonb not null default '[]'::jsonb,
  approved_by integer references users(id) on delete set null,
  approved_by_name text,
  approved_at timestamptz,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  unique (plan_id, version),
  check (valid_to >= valid_from),
  check ((approved_at is null) = (approved_by_name is null))
);
create index archive_plan_versions_approved_idx on archive_plan_versions (plan_id, version desc)
  where approved_at is not null;

-- Drills held under a plan.
create table archive_plan_drills (
  id serial primary key,
  plan_id integer not null references archive_plans(id) on delete cascade,
  drill_date date not null,
  participants text not null,
  participant_count integer check (participant_count >= 1),
  notes text,
  files jsonb not null default '[]'::jsonb,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now()
);
create index archive_plan_drills_plan_idx on archive_plan_drills (plan_id, drill_date desc);

-- The security file manager: folders of a site (a tree), documents in them, versions of each document.
create table archive_folders (
  id serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  parent_id integer references archive_folders(id) on delete restrict,
  name text not null check (length(name) between 1 and 100),
  created_at timestamptz not null default now()
);
create unique index archive_folders_name_uq on archive_folders (platform_id, coalesce(parent_id, 0), lower(name));

create table archive_documents (
  id serial primary key,
  platform_id integer not null references platforms(id) on delete cascade,
  folder_id integer references archive_folders(id) on delete restrict,
  name text not null check (length(name) between 1 and 200),
  doc_type text not null check (doc_type in ('certificate', 'licence', 'regulation', 'procedure', 'training',
    'inspectionReport', 'drawing', 'other')),
  expires_on date,
  contact_id integer references alert_contacts(id) on delete set null,
  remind_days integer not null default 30 check (remind_days between 1 and 365),
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (doc_type not in ('certificate', 'licence') or expires_on is not null)
);
create index archive_documents_site_idx on archive_documents (platform_id, folder_id);
create index archive_documents_expiry_idx on archive_documents (expires_on) where expires_on is not null;

create table archive_document_versions (
  id serial primary key,
  document_id integer not null references archive_documents(id) on delete cascade,
  version integer not null check (version >= 1),
  file_id text not null,
  note text,
  uploaded_by integer references users(id) on delete set null,
  uploaded_by_name text,
  created_at timestamptz not null default now(),
  unique (document_id, version)
);

-- The reminders sent: one per plan (or document) and end date, whatever the number of checkers running.
create table archive_reminders (
  kind text not null check (kind in ('plan', 'document')),
  ref_id integer not null,
  due_date date not null,
  recipient text not null,
  created_at timestamptz not null default now(),
  primary key (kind, ref_id, due_date)
);

-- Reminders are mails of the notification outbox (0010) that name no alert.
alter table notification_outbox alter column alert_id drop not null;
alter table notification_outbox alter column level drop not null;
