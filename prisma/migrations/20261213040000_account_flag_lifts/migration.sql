-- A flag's lifting, kept (docs/adr/0111): who set it and why, who lifted it, when (the environment's clock) and
-- why. Written by the statement that clears the flag; its id is the id of that statement's audit event. The
-- flag-expiry job's lifts have no reason (the flag reached its end). Deleted with the account, as its flags are.
CREATE TABLE account_flag_lifts (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL,
  environment varchar(64) NOT NULL,
  flag varchar(32) NOT NULL,
  set_reason text,
  set_at timestamptz(3),
  set_by varchar(300),
  set_by_name varchar(300),
  lifted_at timestamptz(3) NOT NULL,
  lifted_by varchar(300) NOT NULL,
  lifted_by_name varchar(300),
  lift_reason text,
  CONSTRAINT account_flag_lifts_account_fkey FOREIGN KEY (account_id, environment)
    REFERENCES accounts (id, environment) ON DELETE CASCADE
);
CREATE INDEX account_flag_lifts_account_idx ON account_flag_lifts (account_id, lifted_at);
