-- Issue 15: the user list tells which accounts are locked, and an administrator's unlock deletes an
-- account's lockout rows. login_attempts is keyed by the account as typed at sign-in, so both look it up
-- by lower(account): this index keeps that a lookup per user, however many accounts were tried.
create index login_attempts_account_lower_idx on login_attempts (lower(account));
