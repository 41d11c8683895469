// API keys get a name the owner chooses (issue 39, item 4: a keys page as Stripe's shows which key
// is which). Keys made before have none to recover, so they are called 'API key', the name a new
// key gets when its owner gives none.
export const statements = [`ALTER TABLE api_keys ADD COLUMN name text NOT NULL DEFAULT 'API key'`];
