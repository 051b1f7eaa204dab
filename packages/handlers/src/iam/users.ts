/**
 * IAM users: the users of the caller's account (listed, shown; changed, invited and deleted by
 * Administrators).
 */
import { iamUsersRoutes, ROLE_IDS, roleName, type User } from "@cloudplane/contract";
import { and, asc, count, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import type { Caller } from "../auth.js";
import { sqlState } from "../database-errors.js";
import { conflict, notFound } from "../errors.js";
import type { RequestExtension, RouteDeps } from "../types.js";
import { served } from "../served.js";
import { requireAdministrator, requireOwnAccount } from "./tokens.js";

const { accounts, users } = schema;

type UserRow = typeof users.$inferSelect;

export function userBody(row: UserRow, accountName: string): User {
  const role = roleName(row.roleId);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    company: row.company,
    lang: row.lang as User["lang"],
    client: row.accountId,
    client_and_roles: [{ client_id: row.accountId, client_company_name: accountName, user_id: row.id, user_roles: [role] }],
    groups: [{ id: row.roleId, name: role }],
    activated: row.activated,
    is_active: !row.deleted,
    deleted: row.deleted,
    auth_types: row.authTypes as User["auth_types"],
    sso_auth: row.authTypes.includes("sso"),
    two_fa: false,
    user_type: "common",
    reseller: 0,
  };
}

/** A write that hit the service-wide unique email: 409. */
function emailTaken(email: string | undefined): (error: unknown) => never {
  return (error) => {
    if (sqlState(error) === "23505") throw conflict(`A user with the email ${email} exists already; each user belongs to one account.`);
    throw error;
  };
}

export function iamUsers({ db, memory }: RouteDeps) {
  const accountName = async (accountId: number) => (await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId)))[0]?.name ?? "";
  const ofAccount = (caller: Caller, userId: number) => and(eq(users.accountId, caller.accountId), eq(users.id, userId));

  return tsr.routerWithMiddleware(served("iam", iamUsersRoutes))<RequestExtension>({
    listUsers: async ({ query }, { request: { caller } }) => {
      const where = eq(users.accountId, caller.accountId);
      const [rows, [total], name] = await Promise.all([
        db.select().from(users).where(where).orderBy(asc(users.id)).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(users).where(where),
        accountName(caller.accountId),
      ]);
      return { status: 200, body: { count: total?.total ?? 0, results: rows.map((row) => userBody(row, name)) } };
    },

    getUser: async ({ params }, { request: { caller } }) => {
      const [[row], name] = await Promise.all([db.select().from(users).where(ofAccount(caller, params.userId)), accountName(caller.accountId)]);
      if (!row) throw notFound(`User ${params.userId}`);
      return { status: 200, body: userBody(row, name) };
    },

    updateUser: async ({ params, body }, { request: { caller } }) => {
      requireAdministrator(caller, "invite, change or delete users");
      const updated = await db
        .transaction(async (tx) => {
          const [row] = await tx.select().from(users).where(ofAccount(caller, params.userId)).for("update");
          if (!row) throw notFound(`User ${params.userId}`);
          if (row.deleted) throw conflict(`User ${params.userId} was deleted; a deleted user cannot be changed.`);
          const changes = { name: body.name, email: body.email, phone: body.phone, company: body.company, lang: body.lang, authTypes: body.auth_types };
          // An empty body changes nothing: the user as it is.
          if (Object.values(changes).every((value) => value === undefined)) return row;
          const [changed] = await tx.update(users).set(changes).where(ofAccount(caller, params.userId)).returning();
          return changed!;
        })
        .catch(emailTaken(body.email));
      return { status: 200, body: userBody(updated, await accountName(caller.accountId)) };
    },

    inviteUser: async ({ body }, { request: { caller } }) => {
      requireOwnAccount(body.client_id, caller);
      requireAdministrator(caller, "invite, change or delete users");
      const [row] = await db
        .insert(users)
        .values({
          accountId: caller.accountId,
          name: body.name ?? body.email.slice(0, body.email.indexOf("@")),
          email: body.email,
          roleId: body.user_role.id,
          lang: body.lang ?? "en",
          activated: false,
        })
        .returning({ id: users.id })
        .catch(emailTaken(body.email));
      return { status: 201, body: { user_id: row!.id, status: "invited" } };
    },

    deleteUser: async ({ params }, { request: { caller } }) => {
      requireOwnAccount(params.clientId, caller);
      requireAdministrator(caller, "invite, change or delete users");
      await db.transaction(async (tx) => {
        // The account's active Administrators, locked: two of them deleting each other at once is one order or the other.
        const admins = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.accountId, caller.accountId), eq(users.roleId, ROLE_IDS.administrators), eq(users.deleted, false)))
          .orderBy(asc(users.id))
          .for("update");
        const [row] = await tx.select().from(users).where(ofAccount(caller, params.userId)).for("update");
        if (!row) throw notFound(`User ${params.userId}`);
        // A deleted user stays deleted: deleting it again changes nothing and answers 204 again.
        if (row.deleted) return;
        if (row.roleId === ROLE_IDS.administrators && admins.every((admin) => admin.id === row.id))
          throw conflict(`User ${row.id} is the account's last Administrator; invite another Administrator first.`);
        await tx.update(users).set({ deleted: true }).where(ofAccount(caller, params.userId));
      });
      // This handler's lookups of the user's tokens would let them through for up to authCacheMs more: drop them.
      memory.tokens.forgetUser(params.userId);
      return { status: 204, body: undefined };
    },
  });
}
