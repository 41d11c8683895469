import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { follow, fragmentOf, latestMail, supabase, uniqueEmail, verifyLinkOf, type Mail } from '../helpers';

// Pre-registration takeover (issue 11, item 2): an attacker signs up with the victim's address
// and never confirms it. When the victim proves the address through another channel (magic
// link, e-mail code, recovery link), the attacker's password must stop working and every
// session made before must end. Confirming through the sign-up's own link keeps the password.

const ATTACKER_PASSWORD = 'attacker-password-1';

let server: PlatformTestServer;
beforeAll(async () => {
  server = await startPlatformServer({ env: { EMAIL_MIN_INTERVAL: '0' } });
});
afterAll(() => server?.close());

/** The attacker's sign-up; returns the victim's address and the user id it created. */
async function preRegistered(label: string) {
  const email = uniqueEmail(label);
  const { data, error } = await supabase(server).auth.signUp({ email, password: ATTACKER_PASSWORD });
  if (error) throw error;
  return { email, userId: data.user!.id };
}

const attackerSignIn = (email: string) => supabase(server).auth.signInWithPassword({ email, password: ATTACKER_PASSWORD });

/** A session made before confirmation (as with MAILER_AUTOCONFIRM once, or a since-fixed bug). */
async function earlierSession(userId: string): Promise<string> {
  const row = await server.platform.database.db
    .insertInto('sessions')
    .values({ user_id: userId, aal: 'aal1', amr: JSON.stringify([]), ip: '203.0.113.66', user_agent: 'attacker' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const sessionIds = async (userId: string) =>
  (await server.platform.database.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).map((r) => r.id);

const codeOf = (mail: Mail) => mail.text.match(/\b(\d{6})\b/)![1]!;

describe('confirming an address through another channel', () => {
  it('by magic link removes the password set before and ends earlier sessions', async () => {
    const { email, userId } = await preRegistered('magic');
    const stale = await earlierSession(userId);
    expect((await supabase(server).auth.signInWithOtp({ email })).error).toBeNull();
    const { location } = await follow(verifyLinkOf(await latestMail(server, email, 2)));
    expect(fragmentOf(location).get('access_token')).toBeTruthy();

    expect((await attackerSignIn(email)).error).toMatchObject({ status: 400, code: 'invalid_credentials' });
    const sessions = await sessionIds(userId);
    expect(sessions).not.toContain(stale);
    expect(sessions).toHaveLength(1);
  });

  it('by the mailed code does the same', async () => {
    const { email, userId } = await preRegistered('code');
    await earlierSession(userId);
    await supabase(server).auth.signInWithOtp({ email });
    const { data, error } = await supabase(server).auth.verifyOtp({
      email,
      token: codeOf(await latestMail(server, email, 2)),
      type: 'email',
    });
    expect(error).toBeNull();
    expect(data.user!.id).toBe(userId);
    expect((await attackerSignIn(email)).error).toMatchObject({ code: 'invalid_credentials' });
    expect(await sessionIds(userId)).toHaveLength(1);
  });

  it('by a recovery link does the same; the owner then sets their own password', async () => {
    const { email } = await preRegistered('recover');
    await supabase(server).auth.resetPasswordForEmail(email);
    const { location } = await follow(verifyLinkOf(await latestMail(server, email, 2)));
    const accessToken = fragmentOf(location).get('access_token')!;
    expect((await attackerSignIn(email)).error).toMatchObject({ code: 'invalid_credentials' });

    const owner = supabase(server);
    await owner.auth.setSession({ access_token: accessToken, refresh_token: fragmentOf(location).get('refresh_token')! });
    expect((await owner.auth.updateUser({ password: 'owner-password-1' })).error).toBeNull();
    expect((await supabase(server).auth.signInWithPassword({ email, password: 'owner-password-1' })).error).toBeNull();
  });

  it('by the sign-up link itself keeps the password (whoever clicked it owns the address)', async () => {
    const { email } = await preRegistered('own');
    await follow(verifyLinkOf(await latestMail(server, email)));
    expect((await attackerSignIn(email)).error).toBeNull();
  });

  it('leaves a confirmed account’s password alone', async () => {
    const { email } = await preRegistered('confirmed');
    await follow(verifyLinkOf(await latestMail(server, email)));
    await supabase(server).auth.signInWithOtp({ email });
    await follow(verifyLinkOf(await latestMail(server, email, 2)));
    expect((await attackerSignIn(email)).error).toBeNull();
  });
});
