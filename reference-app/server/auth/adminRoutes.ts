import { Hono, type Context } from 'hono';
import type { Db } from '../db/types';
import { isUuid } from '../db/uuid';
import {
  adminEmail,
  adminPassword,
  adminUserMetadata,
  assertEmailFree,
  banUntil,
  booleanField,
  insertAdminUser,
  loadAdminTarget,
  mergeMetadata,
  refuseUnsupported,
} from './adminUsers';
import type { AuthDeps } from './deps';
import { notFound, validationFailed } from './errors';
import { generateLinkRoutes } from './generateLink';
import { hashPassword } from './passwords';
import { countUsers, deleteFactor, deleteUserRow, lowerSessionsOfFactor, selectFactorsOf, selectUsersPage, updateUserRow } from './queries';
import { readBody, stringField } from './request';
import { deleteSessions } from './sessions';
import {
  confirmEmail,
  factorResponse,
  findUserById,
  loadUserBundle,
  markEmailIdentityVerified,
  userResponse,
  type UserRow,
} from './userRecords';

// GoTrue's admin API for the service-role key (/auth/v1/admin/*): create, list, read, update and
// delete users, their MFA factors, and generate links. routes.ts puts the service-role check in
// front of every route here.

const DEFAULT_PER_PAGE = 50;

const respond = async (c: Context, db: Db, user: UserRow) => c.json(userResponse(await loadUserBundle(db, user)));

/** `page` and `per_page` as GoTrue reads them: unsigned integers, defaults 1 and 50. */
function pageParams(c: Context): { page: number; perPage: number } {
  const read = (name: string, fallback: number) => {
    const raw = c.req.query(name);
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw))
      throw validationFailed(`Bad Pagination Parameters: strconv.ParseUint: parsing ${JSON.stringify(raw)}: invalid syntax`);
    return Number(raw);
  };
  const page = read('page', 1);
  const perPage = read('per_page', DEFAULT_PER_PAGE);
  if (page < 1 || perPage < 1) throw validationFailed('Bad Pagination Parameters: page and per_page must be at least 1');
  return { page, perPage };
}

/** GoTrue's Link (next, last) and X-Total-Count headers; auth-js's listUsers reads both. */
function paginationHeaders(c: Context, page: number, perPage: number, total: number): void {
  const totalPages = Math.ceil(total / perPage);
  const url = new URL(c.req.url);
  const at = (n: number) => {
    url.searchParams.set('page', String(n));
    return `<${url.pathname}${url.search}>`;
  };
  const links = totalPages > page ? [`${at(page + 1)}; rel="next"`] : [];
  links.push(`${at(totalPages)}; rel="last"`);
  c.header('Link', links.join(', '));
  c.header('X-Total-Count', String(total));
}

export function adminRoutes(deps: AuthDeps) {
  const app = new Hono();
  const { db } = deps;

  app.get('/admin/users', async (c) => {
    const { page, perPage } = pageParams(c);
    const filter = c.req.query('filter')?.trim() || undefined;
    const [rows, total] = await Promise.all([
      selectUsersPage(db, { offset: (page - 1) * perPage, limit: perPage, filter }),
      countUsers(db, filter),
    ]);
    paginationHeaders(c, page, perPage, total);
    const users = await Promise.all(rows.map(async (user) => userResponse(await loadUserBundle(db, user))));
    return c.json({ users, aud: 'authenticated' });
  });

  app.post('/admin/users', async (c) => {
    const body = await readBody(c);
    refuseUnsupported(body);
    const rawEmail = stringField(body, 'email');
    if (!rawEmail) throw validationFailed('Cannot create a user without either an email or phone');
    const email = adminEmail(rawEmail);
    const password = adminPassword(body);
    const userMetadata = adminUserMetadata(body, 'user_metadata') ?? {};
    const appMeta = adminUserMetadata(body, 'app_metadata');
    const confirmed = booleanField(body, 'email_confirm') ?? false;
    const bannedUntil = banUntil(body);
    const id = stringField(body, 'id');
    if (id !== undefined && !isUuid(id)) throw validationFailed('ID must conform to the uuid v4 format');
    if (id === '00000000-0000-0000-0000-000000000000') throw validationFailed('ID cannot be a nil uuid');
    await assertEmailFree(db, email);
    const passwordHash = password ? await hashPassword(password) : null;
    const user = await db.transaction().execute(async (trx) => {
      await assertEmailFree(trx, email);
      let created = await insertAdminUser(trx, deps, { id, email, passwordHash, metadata: userMetadata, confirmed });
      if (appMeta || bannedUntil) {
        created = await updateUserRow(trx, created.id, {
          ...(appMeta ? { raw_app_meta_data: JSON.stringify(mergeMetadata(created.raw_app_meta_data, appMeta)) } : {}),
          ...(bannedUntil ? { banned_until: bannedUntil } : {}),
        });
      }
      return created;
    });
    return respond(c, db, user);
  });

  app.get('/admin/users/:id', async (c) => respond(c, db, await loadAdminTarget(db, c.req.param('id'))));

  app.put('/admin/users/:id', async (c) => {
    const target = await loadAdminTarget(db, c.req.param('id'));
    const body = await readBody(c);
    refuseUnsupported(body);
    const rawEmail = stringField(body, 'email');
    const email = rawEmail ? adminEmail(rawEmail) : undefined;
    const password = adminPassword(body);
    const userMetadata = adminUserMetadata(body, 'user_metadata');
    const appMeta = adminUserMetadata(body, 'app_metadata');
    const confirm = booleanField(body, 'email_confirm');
    const bannedUntil = banUntil(body);
    if (email) await assertEmailFree(db, email, target.id);
    const passwordHash = password ? await hashPassword(password) : undefined;
    const user = await db.transaction().execute(async (trx) => {
      const current = (await findUserById(trx, target.id))!;
      const now = new Date();
      const emailChanged = email !== undefined && email !== current.email;
      if (emailChanged) await assertEmailFree(trx, email, current.id);
      let updated = await updateUserRow(trx, current.id, {
        updated_at: now,
        ...(emailChanged ? { email, email_change: null, email_change_sent_at: null } : {}),
        ...(passwordHash ? { encrypted_password: passwordHash } : {}),
        ...(userMetadata ? { raw_user_meta_data: JSON.stringify(mergeMetadata(current.raw_user_meta_data, userMetadata)) } : {}),
        ...(appMeta ? { raw_app_meta_data: JSON.stringify(mergeMetadata(current.raw_app_meta_data, appMeta)) } : {}),
        ...(bannedUntil !== undefined ? { banned_until: bannedUntil } : {}),
      });
      if (emailChanged) await markEmailIdentityVerified(trx, current.id, now, email);
      if (confirm) updated = await confirmEmail(trx, updated, 'signup');
      // A ban or a new password ends the user's sessions, as a password change does.
      if (passwordHash || bannedUntil) await deleteSessions(trx, current.id, 'global', undefined);
      return updated;
    });
    return respond(c, db, user);
  });

  app.delete('/admin/users/:id', async (c) => {
    const target = await loadAdminTarget(db, c.req.param('id'));
    const body = await readBody(c);
    if (body.should_soft_delete === true)
      throw validationFailed('should_soft_delete is not supported: a user is deleted with everything the platform keeps for them');
    await deleteUserRow(db, target.id);
    return c.json({});
  });

  app.get('/admin/users/:id/factors', async (c) => {
    const target = await loadAdminTarget(db, c.req.param('id'));
    return c.json((await selectFactorsOf(db, target.id)).map(factorResponse));
  });

  app.delete('/admin/users/:id/factors/:factorId', async (c) => {
    const target = await loadAdminTarget(db, c.req.param('id'));
    const factorId = c.req.param('factorId');
    if (!isUuid(factorId)) throw notFound('validation_failed', 'factor_id must be an UUID');
    const factor = (await selectFactorsOf(db, target.id)).find((f) => f.id === factorId);
    if (!factor) throw notFound('mfa_factor_not_found', 'Factor not found');
    await db.transaction().execute(async (trx) => {
      await deleteFactor(trx, factor.id);
      await lowerSessionsOfFactor(trx, factor.id);
    });
    return c.json(factorResponse(factor));
  });

  app.route('/', generateLinkRoutes(deps));
  return app;
}
