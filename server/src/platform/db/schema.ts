import type { ColumnType, Generated } from 'kysely';

/** Kysely's view of the tables (server/migrations). Keep in step with the SQL. */
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json = ColumnType<unknown, string, string>;

export interface Database {
  settings: { key: string; value: Json };
  permissions: {
    id: Generated<number>;
    parent_id: number | null;
    name: string;
    code: string;
    level: number;
    type: string;
    path: string | null;
    sort: Generated<number>;
    created_at: Stamp;
  };
  roles: {
    id: Generated<number>;
    name: string;
    code: string;
    description: string | null;
    parent_id: number | null;
    builtin: Generated<boolean>;
    role_file_id: string | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  role_permissions: { role_id: number; permission_id: number };
  platforms: {
    id: Generated<number>;
    type: string;
    name: string;
    description: string | null;
    manager: string | null;
    lon: number | null;
    lat: number | null;
    alt: number | null;
    created_at: Stamp;
    updated_at: Stamp;
    // 0002_sites: common fields; the kind's own fields in details.
    sub_type: string | null;
    region_code: string | null;
    enterprise_id: number | null;
    organization: string | null;
    pictures: ColumnType<string[], string[] | undefined, string[]>;
    files: ColumnType<string[], string[] | undefined, string[]>;
    details: ColumnType<unknown, string | undefined, string>;
    created_by: ColumnType<number | null, number | null | undefined, number | null>;
  };
  // 0002_sites: regions, enterprises, sections and what hangs off them.
  regions: {
    code: string;
    parent_code: string | null;
    level: number;
    name_en: string;
    name_zh: string;
    name_ko: string;
    sort: Generated<number>;
    created_at: Stamp;
    updated_at: Stamp;
  };
  enterprises: {
    id: Generated<number>;
    variant: string;
    name: string;
    code: string | null;
    description: string | null;
    parent_id: number | null;
    address: string | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  sections: {
    id: Generated<number>;
    platform_id: number;
    name: string;
    info: string | null;
    bottom_elevation: number | null;
    upstream_coords: ColumnType<unknown, string | undefined, string>;
    water_level_source: Generated<string>;
    manual_water_level: number | null;
    file_id: string | null;
    position: ColumnType<unknown, string | null | undefined, string | null>;
    created_at: Stamp;
    updated_at: Stamp;
  };
  capacity_rows: {
    id: Generated<number>;
    platform_id: number;
    section_id: number | null;
    idx: number;
    water_level_elevation: number;
    water_volume: number;
  };
  section_devices: {
    id: Generated<number>;
    section_id: number;
    device_id: number;
    kind: Generated<string>;
    created_at: Stamp;
  };
  river_water_levels: {
    id: Generated<number>;
    section_id: number;
    measured_at: Date;
    elevation: number;
    created_by: number | null;
    created_at: Stamp;
  };
  users: {
    id: Generated<number>;
    account: string;
    name: string;
    phone: string | null;
    email: string | null;
    area: string | null;
    role_id: number;
    scope_all: Generated<boolean>;
    enabled: Generated<boolean>;
    key_enc: string;
    created_at: Stamp;
    updated_at: Stamp;
    last_login_at: Date | null;
    /** IANA time zone of the user (null: the server's TIME_ZONE). */
    time_zone: Generated<string | null>;
  };
  user_platforms: { user_id: number; platform_id: number };
  sessions: {
    id: Generated<number>;
    token_hash: string;
    user_id: number;
    created_at: Stamp;
    last_seen_at: Stamp;
    ended_at: Date | null;
    end_reason: string | null;
    ip: string | null;
    user_agent: string | null;
  };
  login_attempts: {
    account: string;
    day: ColumnType<string, string, string>;
    fails: number;
    stage: number;
    locked_until: Date | null;
  };
  used_signatures: { hash: string; expires_at: Date };
  captchas: { id: string; answer_hash: string; expires_at: Date };
  login_tickets: { hash: string; user_id: number; expires_at: Date };
  audit_log: {
    id: Generated<number>;
    at: Stamp;
    user_id: number | null;
    account: string | null;
    action: string;
    target: string | null;
    detail: Json | null;
    ip: string | null;
  };
  // 0003_equipment: monitor types per site, terminals, devices, multi-module statistics, persons, external files.
  platform_modules: { platform_id: number; module_id: number; created_at: Stamp };
  terminals: {
    id: Generated<number>;
    platform_id: number;
    name: string;
    serial: string;
    manufacturer: string | null;
    model: string | null;
    protocol_type: string;
    port: number | null;
    type: string | null;
    parent_id: number | null;
    status: Generated<string>;
    key_salt: string;
    key_hash: string;
    key_rotated_at: Stamp;
    created_at: Stamp;
    updated_at: Stamp;
  };
  devices: {
    id: Generated<number>;
    device_name: string;
    number: string;
    description: string | null;
    group_name: string | null;
    module_id: number;
    platform_id: number | null;
    terminal_id: number | null;
    /** Generated from platform_id: never written. */
    bound: ColumnType<boolean, never, never>;
    type: string | null;
    protocol_type: string | null;
    ip: string | null;
    port: number | null;
    installed_depth: number | null;
    offset_value: number | null;
    offline_hours: number | null;
    station_type: string | null;
    initial_x: number | null;
    initial_y: number | null;
    initial_z: number | null;
    initial_values: ColumnType<unknown, string | undefined, string>;
    filter_threshold: number | null;
    communication_type: string | null;
    serial_port: string | null;
    baud_rate: number | null;
    initial_level: number | null;
    sensitivity_coefficient: number | null;
    temperature_coefficient: number | null;
    initial_frequency: number | null;
    initial_temperature: number | null;
    params: ColumnType<unknown, string | undefined, string>;
    state: Generated<string>;
    last_seen_at: Date | null;
    last_reading_at: Date | null;
    last_values: ColumnType<unknown, string | undefined, string>;
    created_at: Stamp;
    updated_at: Stamp;
  };
  multi_statistics: {
    sid: Generated<number>;
    platform_id: number;
    multi_name: string;
    multi_statistics_type: string;
    module_id: number | null;
    quantity: string | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  multi_statistic_devices: { sid: number; device_id: number; sort: Generated<number> };
  responsible_persons: {
    id: Generated<number>;
    name: string;
    phone: string;
    title: string | null;
    company: string | null;
    company_address: string | null;
    email: string | null;
    role_id: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  person_platforms: { person_id: number; platform_id: number };
  external_files: {
    id: Generated<number>;
    name: string;
    url: string;
    description: string | null;
    role_id: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  import_jobs: {
    id: string;
    kind: string;
    user_id: number | null;
    status: Generated<string>;
    total: Generated<number>;
    done: Generated<number>;
    inserted: Generated<number>;
    errors: ColumnType<unknown, string | undefined, string>;
    created_at: Stamp;
    finished_at: Date | null;
  };
  // 0004_files: uploaded files, file documents, information templates, message board.
  files: {
    id: string;
    kind: string;
    mime: string;
    ext: string;
    size: number;
    original_name: string;
    sha256: string;
    platform_id: number | null;
    uploaded_by: number | null;
    created_at: Stamp;
  };
  file_documents: { file_id: string; key: string; value: Json; updated_by: number | null; updated_at: Stamp };
  info_templates: {
    id: Generated<number>;
    menu_code: string | null;
    menu_name: string;
    menu_context: string | null;
    directory_name: string;
    created_by: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  info_template_fields: { template_id: number; name: string; kind: string; sort: number };
  info_template_bindings: { template_id: number; owner: string; platform_id: number | null; created_at: Stamp };
  info_template_values: {
    template_id: number;
    owner: string;
    key: string;
    value: Json;
    updated_by: number | null;
    updated_at: Stamp;
  };
  comments: {
    id: Generated<number>;
    topic_id: string;
    content: string;
    author_id: number | null;
    author_name: string;
    created_at: Stamp;
  };
  comment_replies: {
    id: Generated<number>;
    comment_id: number;
    reply_to_id: number | null;
    content: string;
    author_id: number | null;
    author_name: string;
    created_at: Stamp;
  };
  // 0005_readings: raw readings (partitioned by month), rollups, ingest rejections.
  readings: { device_id: number; ts: Date; vals: Json; received_at: Stamp };
  readings_hourly: {
    device_id: number;
    quantity: string;
    bucket: Date;
    n: number;
    total: number;
    min_v: number;
    max_v: number;
    first_ts: Date;
    first_v: number;
    last_ts: Date;
    last_v: number;
  };
  readings_daily: {
    device_id: number;
    quantity: string;
    bucket: Date;
    n: number;
    total: number;
    min_v: number;
    max_v: number;
    first_ts: Date;
    first_v: number;
    last_ts: Date;
    last_v: number;
  };
  ingest_rejections: { day: string; reason: string; n: number };
  // 0006_module_data: previous values of readings changed by data processing.
  reading_edits: {
    id: Generated<string>;
    device_id: number;
    ts: Date;
    action: string;
    old_vals: Json;
    new_vals: Json | null;
    user_id: number | null;
    edited_at: Stamp;
  };
  // 0007_monitor_views: device placement on the site's schematic (0..1) and on the map.
  device_positions: {
    device_id: number;
    sketch_x: number | null;
    sketch_y: number | null;
    lon: number | null;
    lat: number | null;
    updated_at: Stamp;
  };
  // 0010_alert_notifications: contacts, groups, templates, colour levels, the notification outbox.
  alert_contacts: {
    id: Generated<number>;
    name: string;
    phone: string | null;
    email: string | null;
    language: string;
    person_id: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  alert_groups: {
    id: Generated<number>;
    name: string;
    description: string | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  alert_group_contacts: { group_id: number; contact_id: number };
  alert_group_platforms: { group_id: number; platform_id: number };
  alert_templates: {
    id: Generated<number>;
    name: string;
    sms_template_code: string | null;
    subject: Json;
    content: Json;
    is_default: Generated<boolean>;
    created_at: Stamp;
    updated_at: Stamp;
  };
  alert_levels: { level: number; suggestion: Json; template_id: number | null; updated_at: Stamp };
  alert_level_contacts: { level: number; contact_id: number };
  notification_outbox: {
    id: Generated<number>;
    alert_id: number;
    event_seq: number;
    platform_id: number | null;
    level: number;
    channel: string;
    recipient: string;
    contact_id: number | null;
    recipient_name: string;
    language: string;
    template_code: string | null;
    subject: string;
    body: string;
    state: Generated<string>;
    attempts: Generated<number>;
    next_attempt_at: Stamp;
    locked_until: Date | null;
    last_error: string | null;
    sent_at: Date | null;
    created_at: Stamp;
  };
  alert_notification_marks: {
    alert_id: number;
    last_at: Date;
    last_level: number;
    notified_count: Generated<number>;
    repeats: Generated<number>;
  };
  // 0009_alerts: alert criteria, alert values (rules), multi-device rules, alerts, hits, actions.
  alert_criteria: {
    id: Generated<number>;
    name: string;
    type: string;
    description: string | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  alert_rules: {
    id: Generated<number>;
    device_id: number;
    quantity: string;
    level: number;
    value_type: string;
    value: number;
    rate_value: number | null;
    direction: string;
    window_n: number | null;
    window_unit: string | null;
    ratio: number | null;
    group_id: number | null;
    channels: ColumnType<string[], string[] | undefined, string[]>;
    push_interval_minutes: Generated<number>;
    enabled: Generated<boolean>;
    criterion_id: number | null;
    description: string | null;
    created_by: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  alert_relations: {
    id: Generated<number>;
    platform_id: number;
    name: string;
    members: ColumnType<unknown, string, string>;
    value_type: string;
    direction: string;
    levels: ColumnType<unknown, string, string>;
    window_n: number | null;
    window_unit: string | null;
    mode: Generated<string>;
    group_id: number | null;
    channels: ColumnType<string[], string[] | undefined, string[]>;
    push_interval_minutes: Generated<number>;
    enabled: Generated<boolean>;
    description: string | null;
    created_by: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  alerts: {
    id: Generated<number>;
    platform_id: number;
    device_id: number;
    quantity: string | null;
    kind: string;
    family: string;
    rule_id: number | null;
    relation_id: number | null;
    value_type: string;
    level: number;
    first_level: number;
    status: Generated<string>;
    threshold: number | null;
    first_value: number | null;
    last_value: number | null;
    metric: number | null;
    trigger_value?: number | null;
    trigger_at?: Date | string | null;
    count: Generated<number>;
    first_at: Date | string;
    last_at: Date | string;
    escalated_at: Date | string | null;
    evidence: ColumnType<unknown, string, string>;
    group_id: number | null;
    channels: ColumnType<string[], string[] | undefined, string[]>;
    push_interval_minutes: Generated<number>;
    processing: ColumnType<unknown, string | null | undefined, string | null>;
    processed_at: Date | string | null;
    processed_by: number | null;
    processed_by_name: string | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  alert_hits: {
    rule_key: string;
    device_id: number;
    reading_ts: Date | string;
    alert_id: number;
    level: number;
    value: number | null;
    metric: number | null;
    created_at: Stamp;
  };
  alert_actions: {
    id: Generated<number>;
    alert_id: number;
    at: Stamp;
    action: string;
    user_id: number | null;
    user_name: string | null;
    level: number | null;
    detail: ColumnType<unknown, string | undefined, string>;
  };
  // 0008_ts_management: tailings supervision records (dates are read with to_char as yyyy-MM-dd).
  ts_records: {
    id: Generated<number>;
    platform_id: number;
    inspection_date: ColumnType<Date | string, string, string>;
    inspector: string;
    problem_type: string | null;
    items: ColumnType<unknown, string, string>;
    dry_beach_length: number | null;
    findings: string | null;
    requirement: string | null;
    deadline: ColumnType<Date | string | null, string | null, string | null>;
    attachments: ColumnType<unknown, string | undefined, string>;
    responsible_person_id: number | null;
    regulatory_person: string | null;
    state: string;
    completed_date: ColumnType<Date | string | null, string | null, string | null>;
    result: string | null;
    result_attachments: ColumnType<unknown, string | undefined, string>;
    created_by: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  // 0025_three_d_panoramas: a site's 3D model and device placements; panoramas and their hotspots.
  three_d_models: {
    id: Generated<number>;
    platform_id: number;
    name: string;
    file_key: string;
    size: ColumnType<number, number, number>;
    triangles: ColumnType<number, number | undefined, number>;
    created_by: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  // 0029_three_d_tilesets: the 3D Tiles folder (under DATA_DIR/threeD/tilesets) a site shows.
  three_d_tilesets: {
    platform_id: number;
    name: string;
    created_by: number | null;
    updated_at: Stamp;
  };
  three_d_placements: {
    device_id: number;
    platform_id: number;
    x: number;
    y: number;
    z: number;
    updated_at: Stamp;
  };
  panoramas: {
    id: Generated<number>;
    platform_id: number;
    name: string;
    file_key: string;
    ext: string;
    width: number;
    height: number;
    size: ColumnType<number, number, number>;
    created_by: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  panorama_hotspots: {
    id: Generated<number>;
    panorama_id: number;
    kind: string;
    yaw: number;
    pitch: number;
    device_id: number | null;
    target_id: number | null;
    label: string | null;
  };
  schema_migrations: { version: number; name: string; applied_at: Stamp };
}
