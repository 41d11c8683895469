import { describe, expect, it } from 'vitest';
import { MAX_USER_METADATA_BYTES } from '../../../reference-app/server/limits';
import { confirmedUser, globalServer, rawApi, signedIn } from '../helpers';

// user_metadata travels in every access token; a token over 16 KB makes Node refuse each API
// request with 431, locking the user out. The metadata is capped so that cannot happen.

const target = globalServer();

describe('user metadata cap', () => {
  it('refuses metadata that would grow past the cap, also through several small updates', async () => {
    const { client } = await signedIn(target, await confirmedUser(target, 'meta'));
    const half = 'x'.repeat(MAX_USER_METADATA_BYTES / 2 - 100);
    expect((await client.auth.updateUser({ data: { a: half } })).error).toBeNull();
    const second = await client.auth.updateUser({ data: { b: half, c: half } });
    expect(second.error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(second.error!.message).toBe(
      `data must be at most ${MAX_USER_METADATA_BYTES} bytes of JSON, together with the metadata already stored`,
    );
    const tooBig = await client.auth.updateUser({ data: { big: 'y'.repeat(MAX_USER_METADATA_BYTES) } });
    expect(tooBig.error).toMatchObject({ status: 400 });
    // Replacing a key counts its new size, not old + new.
    expect((await client.auth.updateUser({ data: { a: half, b: 'small' } })).error).toBeNull();
  });

  it('a user at the cap still has tokens under 16 KB that the API accepts', async () => {
    const { client } = await signedIn(target, await confirmedUser(target, 'meta-full'));
    // Multi-byte characters: the cap counts bytes, not characters.
    const value = 'é'.repeat(MAX_USER_METADATA_BYTES / 2 - 200);
    expect((await client.auth.updateUser({ data: { bio: value } })).error).toBeNull();
    const { data, error } = await client.auth.refreshSession();
    if (error) throw error;
    const token = data.session!.access_token;
    expect(token.length).toBeLessThan(16 * 1024 - 200);
    expect((await rawApi(target, 'GET', '/v1/profile/profile', { token })).status).toBe(200);
  });
});
