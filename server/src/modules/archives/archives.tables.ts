import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { Database } from '../../platform/db/schema.ts';

/** Kysely's view of this feature's tables (server/migrations/0022_archives.sql). Keep in step with the SQL. */
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Day = ColumnType<string, string, string>;
type OptDay = ColumnType<string | null, string | null | undefined, string | null>;
type Json = ColumnType<unknown, string | undefined, string>;

export type ArchiveTables = {
  archive_inspections: {
    id: Generated<number>;
    platform_id: number;
    inspection_date: Day;
    inspector: string;
    items: Json;
    problems: Json;
    problem_count: number;
    requirement: string | null;
    deadline: OptDay;
    state: string;
    completed_date: OptDay;
    result: string | null;
    created_by: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  archive_plans: {
    id: Generated<number>;
    platform_id: number;
    kind: string;
    name: string;
    contact_id: number | null;
    remind_days: number;
    created_by: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  archive_plan_versions: {
    id: Generated<number>;
    plan_id: number;
    version: number;
    valid_from: Day;
    valid_to: Day;
    summary: string | null;
    files: Json;
    approved_by: number | null;
    approved_by_name: string | null;
    approved_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    created_by: number | null;
    created_at: Stamp;
  };
  archive_plan_drills: {
    id: Generated<number>;
    plan_id: number;
    drill_date: Day;
    participants: string;
    participant_count: number | null;
    notes: string | null;
    files: Json;
    created_by: number | null;
    created_at: Stamp;
  };
  archive_folders: {
    id: Generated<number>;
    platform_id: number;
    parent_id: number | null;
    name: string;
    created_at: Stamp;
  };
  archive_documents: {
    id: Generated<number>;
    platform_id: number;
    folder_id: number | null;
    name: string;
    doc_type: string;
    expires_on: OptDay;
    contact_id: number | null;
    remind_days: number;
    created_by: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
  archive_document_versions: {
    id: Generated<number>;
    document_id: number;
    version: number;
    file_id: string;
    note: string | null;
    uploaded_by: number | null;
    uploaded_by_name: string | null;
    created_at: Stamp;
  };
  archive_reminders: {
    kind: string;
    ref_id: number;
    due_date: Day;
    recipient: string;
    created_at: Stamp;
  };
};

export type ArchDb = Kysely<Database & ArchiveTables>;
export const arch = (db: Db | Kysely<Database>): ArchDb => ('k' in db ? db.k : db).withTables<ArchiveTables>();
