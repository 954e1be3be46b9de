-- Files (uploads), file documents, information templates and the message board.
-- Depends only on 0001 (users). Site ids are kept without a foreign key: a file or a binding of a deleted
-- site stays visible only to callers who see every site (ids are never reused), instead of becoming unattached.

-- Uploaded files. The bytes live under DATA_DIR/files/<first 2 hex of id>/<id>.<ext>; the name there is always
-- generated. original_name is display text only.
create table files (
  id text primary key check (id ~ '^[0-9a-f]{32}$'),
  kind text not null check (kind in ('picture', 'document', 'attachment')),
  mime text not null,
  ext text not null check (ext in ('jpg', 'png', 'gif', 'bmp', 'pdf', 'doc', 'docx')),
  size bigint not null check (size > 0),
  original_name text not null,
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  platform_id integer,
  uploaded_by integer references users(id) on delete set null,
  created_at timestamptz not null default now()
);
create index files_platform_idx on files (platform_id) where platform_id is not null;

-- File documents: key/value fields kept under a file id (an uploaded file, or a document of its own).
create table file_documents (
  file_id text not null check (file_id ~ '^[A-Za-z0-9_-]{1,64}$'),
  key text not null,
  value jsonb not null,
  updated_by integer references users(id) on delete set null,
  updated_at timestamptz not null default now(),
  primary key (file_id, key)
);

-- Information templates ("menus", spec §3 Info template) and their fields.
create table info_templates (
  id serial primary key,
  menu_code text,
  menu_name text not null check (length(menu_name) > 0),
  menu_context text,
  directory_name text not null check (length(directory_name) > 0),
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index info_templates_code_uq on info_templates (lower(menu_code)) where menu_code is not null;

create table info_template_fields (
  template_id integer not null references info_templates(id) on delete cascade,
  name text not null check (length(name) > 0),
  kind text not null default 'text' check (kind in ('text', 'file', 'image')),
  sort integer not null default 0,
  primary key (template_id, name)
);

-- Owners a template is bound to: platform:<id>, section:<id> (platform_id then holds the site) or another id.
create table info_template_bindings (
  template_id integer not null references info_templates(id) on delete cascade,
  owner text not null,
  platform_id integer,
  created_at timestamptz not null default now(),
  primary key (template_id, owner)
);
create index info_template_bindings_owner_idx on info_template_bindings (owner);

-- Values per (template, owner, field). Unbinding, or deleting the field, deletes them; renaming the field moves them.
create table info_template_values (
  template_id integer not null,
  owner text not null,
  key text not null,
  value jsonb not null,
  updated_by integer references users(id) on delete set null,
  updated_at timestamptz not null default now(),
  primary key (template_id, owner, key),
  foreign key (template_id, owner) references info_template_bindings (template_id, owner) on delete cascade,
  foreign key (template_id, key) references info_template_fields (template_id, name)
    on delete cascade on update cascade
);
create index info_template_values_field_idx on info_template_values (template_id, key);

-- Message board: comments on a topic, and replies (to the comment, or to another reply of it).
-- author_name keeps the name at the time of writing, shown when the account is gone.
create table comments (
  id serial primary key,
  topic_id text not null,
  content text not null check (length(content) between 1 and 2000),
  author_id integer references users(id) on delete set null,
  author_name text not null,
  created_at timestamptz not null default now()
);
create index comments_topic_idx on comments (topic_id, created_at desc);

create table comment_replies (
  id serial primary key,
  comment_id integer not null references comments(id) on delete cascade,
  reply_to_id integer references comment_replies(id) on delete set null,
  content text not null check (length(content) between 1 and 2000),
  author_id integer references users(id) on delete set null,
  author_name text not null,
  created_at timestamptz not null default now()
);
create index comment_replies_comment_idx on comment_replies (comment_id, created_at);
