/**
 * Security profile templates: the templates an account may build profiles on.
 */
import { securityProfileTemplatesRoutes } from "@cloudplane/contract";
import { and, asc, eq, schema } from "@cloudplane/db";
import { tsr } from "@ts-rest/serverless/fetch";
import type { RequestExtension, RouteDeps } from "../types.js";
import { templateFields, toTemplate, visibleTemplate } from "./shared.js";
import { served } from "../served.js";

// The table under a name of its own: `securityProfileTemplates` names this module's routes.
const { securityProfileTemplates: securityProfileTemplatesTable } = schema;

export function securityProfileTemplates({ db }: RouteDeps) {
  return tsr.routerWithMiddleware(served("security", securityProfileTemplatesRoutes))<RequestExtension>({
    listProfileTemplates: async ({ query }, { request: { caller } }) => {
      const conditions = [visibleTemplate(caller.accountId)];
      if (query.accepts_ip_address !== undefined) conditions.push(eq(securityProfileTemplatesTable.acceptsIpAddress, query.accepts_ip_address));
      const templates = await db
        .select()
        .from(securityProfileTemplatesTable)
        .where(and(...conditions))
        .orderBy(asc(securityProfileTemplatesTable.id))
        .limit(query.limit)
        .offset(query.offset);
      const fieldsOf = await templateFields(
        db,
        templates.map((template) => template.id),
      );
      return { status: 200, body: templates.map((template) => toTemplate(template, fieldsOf.get(template.id) ?? [])) };
    },
  });
}
