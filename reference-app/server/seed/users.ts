import { randomToken, sha256 } from '../crypto/tokens';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { insertUser } from '../auth/userRecords';
import { addEntry, grantSignUpBonus } from '../payments/ledger';
import { seededEarningEntries } from './earnings';

// The seed accounts. Two can sign in (confirmed e-mail): the demo user, a consumer with some
// history, and the publisher, who owns public and private services. A third account stands
// for the platform team that owns the official ('limelight') services; it has no password.

export const SEED_USERS = {
  team: { id: '1ce1e1e7-0000-4000-8000-000000000001', email: 'team@limelight.dev' },
  demo: { id: 'de30de30-0000-4000-8000-000000000002', email: 'demo@limelight.dev', password: 'limelight-demo' },
  publisher: { id: 'b0b1b0b1-0000-4000-8000-000000000003', email: 'publisher@limelight.dev', password: 'limelight-publisher' },
} as const;

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

async function maskedApiKey(trx: Db, userId: string, createdDaysAgo: number, lifetimeDays: number) {
  const secret = `lime_${randomToken(32)}`; // nobody knows it: the seed only shows a listed key
  await trx
    .insertInto('api_keys')
    .values({
      user_id: userId,
      key_hash: sha256(secret),
      display_value: `lime_…${secret.slice(-4)}`,
      created_at: daysAgo(createdDaysAgo),
      expiration_date: new Date(daysAgo(createdDaysAgo).getTime() + lifetimeDays * DAY),
    })
    .execute();
}

/**
 * NODE_ENV=production seeds only what the catalogue needs: the team and the publisher as owners
 * of their services, with no password, no keys, credits or credentials. Nobody can sign in
 * with a published password.
 */
async function seedCatalogueOwners(trx: Db): Promise<void> {
  for (const [user, name, days] of [
    [SEED_USERS.team, 'Limelight Team', 730],
    [SEED_USERS.publisher, 'Pia Publisher', 690],
  ] as const) {
    await insertUser(trx, {
      id: user.id,
      email: user.email,
      passwordHash: null,
      metadata: { full_name: name },
      confirmed: true,
      createdAt: daysAgo(days),
    });
  }
}

/**
 * A database seeded in development and then served with NODE_ENV=production would still let
 * anyone in with the demo passwords printed in the README: production removes them at start.
 * Returns the addresses whose password was removed.
 */
export async function removeDemoPasswords(db: Db): Promise<string[]> {
  const removed: string[] = [];
  for (const account of [SEED_USERS.demo, SEED_USERS.publisher]) {
    const row = await db.selectFrom('users').select('encrypted_password').where('id', '=', account.id).executeTakeFirst();
    if (!row?.encrypted_password || !(await verifyPassword(row.encrypted_password, account.password))) continue;
    await db.updateTable('users').set({ encrypted_password: null, updated_at: new Date() }).where('id', '=', account.id).execute();
    removed.push(account.email);
  }
  return removed;
}

export async function seedUsers(trx: Db, box: SecretBox, options: { demoAccounts: boolean }): Promise<void> {
  if (!options.demoAccounts) return seedCatalogueOwners(trx);
  const [demoHash, publisherHash] = await Promise.all([
    hashPassword(SEED_USERS.demo.password),
    hashPassword(SEED_USERS.publisher.password),
  ]);

  await insertUser(trx, {
    id: SEED_USERS.team.id,
    email: SEED_USERS.team.email,
    passwordHash: null,
    metadata: { full_name: 'Limelight Team' },
    confirmed: true,
    createdAt: daysAgo(730),
  });

  await insertUser(trx, {
    id: SEED_USERS.demo.id,
    email: SEED_USERS.demo.email,
    passwordHash: demoHash,
    metadata: { full_name: 'Dana Demo' },
    confirmed: true,
    createdAt: daysAgo(400),
  });
  await trx
    .insertInto('profiles')
    .values({
      user_id: SEED_USERS.demo.id,
      full_name: 'Dana Demo',
      street: 'Invalidenstraße',
      number: '117',
      zip_code: '10115',
      city: 'Berlin',
      country_code: 'DE',
      terms_accepted: true,
      terms_accepted_at: daysAgo(400),
      dt_created: daysAgo(400),
    })
    .execute();
  await grantSignUpBonus(trx, SEED_USERS.demo.id, daysAgo(400));
  await addEntry(trx, {
    userId: SEED_USERS.demo.id,
    amount: 1000,
    kind: 'purchase',
    description: 'Purchase of 1000 credits',
    createdAt: daysAgo(200),
  });
  await maskedApiKey(trx, SEED_USERS.demo.id, 30, 183);
  await maskedApiKey(trx, SEED_USERS.demo.id, 300, 183); // expired, still listed
  // Their runs, calls and the credits those spent: seed/runs.ts, once the catalogue is there.

  await insertUser(trx, {
    id: SEED_USERS.publisher.id,
    email: SEED_USERS.publisher.email,
    passwordHash: publisherHash,
    metadata: { full_name: 'Pia Publisher' },
    confirmed: true,
    createdAt: daysAgo(690),
  });
  await trx
    .insertInto('profiles')
    .values({
      user_id: SEED_USERS.publisher.id,
      full_name: 'Pia Publisher',
      street: 'Carrer de Pallars',
      number: '85',
      address_extra: '3rd floor',
      zip_code: '08018',
      city: 'Barcelona',
      country_code: 'ES',
      mobile: '+34 600 123 456',
      date_of_birth: '1988-04-12',
      terms_accepted: true,
      terms_accepted_at: daysAgo(690),
      dt_created: daysAgo(690),
    })
    .execute();
  await grantSignUpBonus(trx, SEED_USERS.publisher.id, daysAgo(690));
  // Earnings follow the run counts of the publisher's public services (seed/earnings.ts).
  for (const entry of seededEarningEntries()) {
    await addEntry(trx, {
      userId: SEED_USERS.publisher.id,
      amount: entry.amount,
      kind: 'earning',
      description: `Earnings from ${entry.serviceId}`,
      reference: entry.reference,
      createdAt: daysAgo(entry.daysAgo),
    });
  }
  await addEntry(trx, {
    userId: SEED_USERS.publisher.id,
    amount: -800,
    kind: 'payout',
    description: 'Payout to bank account …7781',
    createdAt: daysAgo(100),
  });
  await maskedApiKey(trx, SEED_USERS.publisher.id, 10, 365);
  await trx
    .insertInto('registry_credentials')
    .values({
      user_id: SEED_USERS.publisher.id,
      platform: 'dockerhub',
      credential_alias: 'ci-push',
      foreign_username: 'piapublisher',
      pat_enc: box.seal('dckr_pat_seededExampleToken0000'),
      pat_last4: '0000',
    })
    .execute();
  await trx
    .insertInto('subscriptions')
    .values({
      user_id: SEED_USERS.publisher.id,
      plan_type: 'pro',
      status: 'active',
      cancel_at_period_end: false,
      current_period_end: new Date(Date.now() + 12 * DAY),
      provider: 'sandbox',
      provider_ref: 'sandbox_seed_publisher',
    })
    .execute();
}
