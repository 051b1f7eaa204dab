/**
 * IAM account: the caller's account and its users, its schema and its route.
 */
import { z } from "zod";
import { errorResponses, integer, stringEnum } from "../common.js";
import type { ClientMetadata } from "../client-names.js";
import * as examples from "../examples.js";
import { route } from "../route.js";
import { administratorExample, user } from "./users.js";

/** The platform's services, as the account overview names them. */
export const PLATFORM_SERVICES = ["CDN", "STORAGE", "STREAMING", "DNS", "DDOS", "CLOUD"] as const;
export type PlatformService = (typeof PLATFORM_SERVICES)[number];

/** The services this API serves, and so the ones an account may use here: every one but DNS. */
export const SERVED_SERVICES: readonly PlatformService[] = ["CDN", "STORAGE", "STREAMING", "DDOS", "CLOUD"];

const service = stringEnum(PLATFORM_SERVICES);

const featureFields = {
  feature_id: integer().describe("The feature's id in the platform's catalog."),
  name: z.string().describe("The feature's name."),
  create_date: z.string().describe("When the account got the feature."),
  service: service.describe("The service the feature belongs to."),
};

/** `{ CDN: …, STORAGE: …, … }`: one `item` per service, described as `what` of that service. */
const perService = <T extends z.ZodTypeAny>(item: T, what: string) =>
  z.object(Object.fromEntries(PLATFORM_SERVICES.map((name) => [name, item.describe(`${what} ${name}.`)])) as Record<PlatformService, T>).strict();

const accountOverviewSchema = z
  .object({
    id: integer().describe("The account id."),
    companyName: z.string().describe("The account's name."),
    name: z.string().nullable().describe("The name of the user who registered the account: its first Administrator; null if it has none."),
    phone: z.string().nullable().describe("The phone of the user who registered the account; null: none given."),
    email: z.string().nullable().describe("The account's contact email: that of the user who registered it; null if it has none."),
    website: z.string().nullable().describe("The company's website; null: the service keeps none."),
    country_code: z.string().nullable().describe("The company's country (ISO 3166-1 alpha-2); null: the service keeps none."),
    custom_id: z.string().nullable().describe("The account's custom id; null: none is set."),
    signup_process: z.string().nullable().describe("How the account was registered; null: it was provisioned by an operator."),
    entryBaseDomain: z.string().nullable().describe("The control panel's domain; null: this service has no control panel."),
    currentUser: integer().describe("The id of the user whose token made this call."),
    deleted: z.boolean().describe("Whether the account was deleted: always false for an account that can call."),
    status: z.string().describe('"active" for every account the service serves.'),
    is_test: z.boolean().describe("Whether the account is a test account: false, every account is served alike."),
    bill_type: z.string().describe('How the account is billed: "postpay", usage billed after each month (see the cost report).'),
    has_active_admin: z.boolean().describe("Whether the account has an Administrator that is not deleted."),
    capabilities: z.array(service).describe("The services the account may use: every service this API serves (all but DNS)."),
    serviceStatuses: perService(
      z
        .object({
          enabled: z.boolean().describe("Whether the account may use the service."),
          status: z.string().describe('"active", or for the CDN the account\'s CDN service status; "new" for a service this API does not serve.'),
        })
        .strict(),
      "The account's state of",
    ).describe("Each service's state for the account."),
    paidFeatures: perService(
      z.array(z.object({ ...featureFields, paid_feature_id: integer().describe("The account's paid feature id.") }).strict()),
      "The paid features of",
    ).describe(
      "The features the account pays for, by service (the CDN's are those of `GET /cdn/clients/me/features`).",
    ),
    freeFeatures: perService(
      z.array(z.object({ ...featureFields, free_feature_id: integer().describe("The account's free feature id.") }).strict()),
      "The free features of",
    ).describe(
      "The features the account has at no cost, by service.",
    ),
    users: z.array(user).describe("The account's users, deleted ones included, by id ascending, as `GET /iam/users` shows them."),
  })
  .strict()
  .describe("The caller's account, its services and features, and its users.");
export interface AccountOverviewSchema extends AccountOverviewSchemaType {}
type AccountOverviewSchemaType = typeof accountOverviewSchema;
export const accountOverview: AccountOverviewSchema = accountOverviewSchema;

export type AccountOverview = z.infer<typeof accountOverview>;

// The examples' objects: the demo data's, of account 1.
const clientId = examples.apiTokenExample.client_user.client_id;
const member = examples.apiTokenExample.client_user;
const noFeatures = { CDN: [], STORAGE: [], STREAMING: [], DNS: [], DDOS: [], CLOUD: [] };

export const iamAccountRoutes = {
  getAccount: route({
    method: "GET",
    path: "/iam/clients/me",
    responses: { 200: accountOverview, ...errorResponses() },
    summary: "Get the caller's account",
    description:
      "The account of the calling token: its id and name, the calling user (`currentUser`), the services it may use " +
      "(`capabilities`, `serviceStatuses`) and its features by service, and the account's users with their roles, as " +
      "`GET /iam/users` shows them. Fields the service keeps no value for are null. Open to every role that may read.",
    // `/iam/clients/me` is the caller's account: "clients" is the platform's word for accounts.
    metadata: { access: "read", client: { resource: "account" } } satisfies ClientMetadata,
  }, {
    example: {
      response: {
        id: clientId,
        companyName: "Acme Media",
        name: "Alice Admin",
        phone: null,
        email: "alice@acme.example",
        website: null,
        country_code: null,
        custom_id: null,
        signup_process: null,
        entryBaseDomain: null,
        currentUser: member.user_id,
        deleted: false,
        status: "active",
        is_test: false,
        bill_type: "postpay",
        has_active_admin: true,
        capabilities: [...SERVED_SERVICES],
        serviceStatuses: Object.fromEntries(
          PLATFORM_SERVICES.map((name) => [name, SERVED_SERVICES.includes(name) ? { enabled: true, status: "active" } : { enabled: false, status: "new" }]),
        ) as Record<PlatformService, { enabled: boolean; status: string }>,
        paidFeatures: {
          ...noFeatures,
          CDN: examples.cdnFeaturesExample.paid_features.map((feature) => ({ ...feature, service: "CDN" as const })),
        },
        freeFeatures: {
          ...noFeatures,
          CDN: examples.cdnFeaturesExample.free_features.map((feature) => ({ ...feature, service: "CDN" as const })),
        },
        users: [administratorExample],
      },
    },
    case: { path: () => "/iam/clients/me", ownsObjects: false },
  }),
} as const;
