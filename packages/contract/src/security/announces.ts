/**
 * BGP announces: whether the service announces each of the account's protected networks over BGP (so
 * that its traffic is drawn through the filters), listed and toggled at
 * /security/sifter/v2/protected_addresses/announces.
 */
import type { ClientMetadata } from "../client-names.js";
import { z } from "zod";
import { booleanQuery, cidr, errorResponses, integer, integerParam, listOf, stringEnum, strictObject, withBody } from "../common.js";
import { route } from "../route.js";
import type { CaseWorld } from "../route-case.js";

export const BGP_ANNOUNCE_ORIGINS = ["STATIC", "DYNAMIC", "IAAS", "PROTECTED_NETWORK", "EDGE_PROXY"] as const;

const clientAnnounceSchema = z
  .object({
    client_id: integer().describe("The account's id."),
    announced: z.array(z.string()).describe("The protected networks announced over BGP, in CIDR form, sorted."),
    not_announced: z.array(z.string()).describe("The protected networks not announced, in CIDR form, sorted."),
  })
  .strict()
  .describe("An account's protected networks, announced or not.");
export interface ClientAnnounceSchema extends ClientAnnounceSchemaType {}
type ClientAnnounceSchemaType = typeof clientAnnounceSchema;
export const clientAnnounce: ClientAnnounceSchema = clientAnnounceSchema;

export type ClientAnnounce = z.infer<typeof clientAnnounce>;

const clientIdQuery = integerParam({ min: 1, description: "The account: the caller's own (another account's is 403). Default: the caller's." });

const ORIGINS_TEXT = `Only the networks of these origins (${BGP_ANNOUNCE_ORIGINS.join(", ")}), comma-separated or repeated; the account's protected addresses are of origin IAAS.`;

/** `origin` as the platform's SDK sends a list in a query: repeated, or comma-separated. */
const originList = z
  .preprocess(
    (value) => (typeof value === "string" ? value.split(",") : value),
    listOf(stringEnum(BGP_ANNOUNCE_ORIGINS), { max: BGP_ANNOUNCE_ORIGINS.length, noun: "origins", description: ORIGINS_TEXT }),
  )
  .describe(`${ORIGINS_TEXT} At most ${BGP_ANNOUNCE_ORIGINS.length} origins.`);

const listBgpAnnouncesQuerySchema = z.object({
  announced: booleanQuery("true: only the announced networks; false: only those not announced.").optional(),
  client_id: clientIdQuery.optional(),
  origin: originList.optional(),
  site: z.string().max(64).optional().describe('Only the networks of profiles of this site, e.g. "ED".'),
  limit: integerParam({ min: 1, max: 1000, description: "The most accounts listed, 1 to 1000. Default 100: an account sees only its own." }).default(100),
  offset: integerParam({ min: 0, description: "Accounts skipped. Default 0." }).default(0),
});
export interface ListBgpAnnouncesQuerySchema extends ListBgpAnnouncesQuerySchemaType {}
type ListBgpAnnouncesQuerySchemaType = typeof listBgpAnnouncesQuerySchema;
export const listBgpAnnouncesQuery: ListBgpAnnouncesQuerySchema = listBgpAnnouncesQuerySchema;

export type ListBgpAnnouncesQuery = z.output<typeof listBgpAnnouncesQuery>;

const toggleBgpAnnounceBodySchema = strictObject({
  announce: cidr.describe("The network to announce or withdraw, in CIDR form: one of the account's protected networks (an address's /32 or /128)."),
  enabled: z.boolean().describe("true announces it over BGP; false withdraws it."),
}).describe("Which protected network, and whether to announce it.");
export interface ToggleBgpAnnounceBodySchema extends ToggleBgpAnnounceBodySchemaType {}
type ToggleBgpAnnounceBodySchemaType = typeof toggleBgpAnnounceBodySchema;
export const toggleBgpAnnounceBody: ToggleBgpAnnounceBodySchema = toggleBgpAnnounceBodySchema;

export type ToggleBgpAnnounceBody = z.input<typeof toggleBgpAnnounceBody>;

const NETWORKS =
  "The account's protected networks are the addresses of its live profiles, each as its /32 (IPv4) or /128 (IPv6). A " +
  "network is announced as its profiles' `options.bgp` says until a toggle sets it; the toggle is kept (also when " +
  "the profiles change) until the next one.";

// The cases' object: the first network the account protects.
const networkOf = (w: CaseWorld) => {
  const [entry] = w.get("security.listBgpAnnounces") as ClientAnnounce[];
  return entry?.announced[0] ?? entry?.not_announced[0] ?? "203.0.113.10/32";
};

export const securityBgpAnnouncesRoutes = {
  listBgpAnnounces: route({
    method: "GET",
    path: "/security/sifter/v2/protected_addresses/announces",
    query: listBgpAnnouncesQuery,
    responses: { 200: z.array(clientAnnounce).describe("One entry: the caller's account."), ...errorResponses() },
    summary: "List BGP announces",
    description:
      `The account's protected networks, announced over BGP or not, filtered by \`announced\`, \`origin\` and \`site\`. ${NETWORKS} ` +
      "An array of one entry, the caller's account, as on the platform (where a reseller sees its clients'); " +
      "`client_id` may name only the caller's own account (403 otherwise).",
    metadata: { access: "read", client: { resource: "bgpAnnounces" } } satisfies ClientMetadata,
  }, {
    example: {
      query: { site: "ED" },
      response: [{ client_id: 1, announced: [], not_announced: ["203.0.113.10/32"] }],
    },
    case: { path: () => "/security/sifter/v2/protected_addresses/announces", ownsObjects: false },
  }),
  toggleBgpAnnounce: route({
    method: "POST",
    path: "/security/sifter/v2/protected_addresses/announces",
    query: z.object({ client_id: clientIdQuery.optional() }),
    body: toggleBgpAnnounceBody,
    responses: { 200: clientAnnounce, ...errorResponses(withBody) },
    summary: "Toggle a BGP announce",
    description:
      `Announces (\`enabled\` true) or withdraws one of the account's protected networks. ${NETWORKS} A network the ` +
      "account does not protect is 400 (`announce`). Answers the account's networks as they now are.",
    metadata: { access: "write", client: { resource: "bgpAnnounces", method: "toggle" } } satisfies ClientMetadata,
  }, {
    example: {
      body: { announce: "203.0.113.10/32", enabled: true },
      response: { client_id: 1, announced: ["203.0.113.10/32"], not_announced: ["2001:db8::10/128"] },
    },
    case: {
      path: () => "/security/sifter/v2/protected_addresses/announces",
      ownsObjects: false,
      body: (w) => ({ announce: networkOf(w), enabled: true }),
    },
  }),
} as const;
