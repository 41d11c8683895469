// When an administrator invited the user (POST /auth/v1/invite, generate_link type invite), as
// GoTrue's users.invited_at: supabase-js's User has it and the auth-js suite checks it. Users
// made before were not invited through these routes, so they have none.
export const statements = [`ALTER TABLE users ADD COLUMN invited_at timestamptz`];
