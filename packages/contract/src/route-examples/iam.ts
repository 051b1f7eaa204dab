/**
 * Example calls of the IAM area's routes, keyed by route id (see ../route-examples.ts).
 */
import * as examples from "../examples.js";
import { ROLE_IDS, ROLE_NAMES } from "../roles.js";
import type { AreaRouteExamples } from "./example.js";

const clientId = examples.apiTokenExample.client_user.client_id;
const user = examples.apiTokenExample.client_user;

export const iamRouteExamples = {
  "iam.listTokens": {
    pathParams: { clientId },
    query: { role: examples.apiTokenExample.client_user.role.id, deleted: true },
    response: [examples.apiTokenExample],
  },
  "iam.createToken": {
    pathParams: { clientId },
    body: {
      name: examples.apiTokenExample.name,
      description: examples.apiTokenExample.description,
      exp_date: "2099-01-01T00:00:00Z",
      client_user: { user_id: user.user_id, role: { id: ROLE_IDS.administrators, name: ROLE_NAMES[ROLE_IDS.administrators] } },
    },
    response: {
      ...examples.apiTokenExample,
      exp_date: "2099-01-01 00:00:00+00:00",
      last_usage: null,
      token: "cp_3f9a0c6e1b7d4a28e5c2f0b9d6a3e1c47b8f2d0a9e6c3b1f5d8a7e4c2b0f9d6a",
    },
  },
  "iam.getToken": {
    pathParams: { clientId, tokenId: examples.apiTokenExample.id },
    response: examples.apiTokenExample,
  },
  "iam.deleteToken": {
    // The demo's revoked token of account 1: the example may run again and again (revoking it again answers 204) and revokes nothing in use.
    pathParams: { clientId, tokenId: 13 },
    // A 204 has no body; the example type asks for one (see the report to the lead).
  },
  "iam.getAccount": {
    response: {
      id: clientId,
      companyName: "Acme Media",
      currentUser: user.user_id,
      email: null,
      deleted: false,
      status: "active",
      has_active_admin: true,
      users: [
        {
          id: user.user_id,
          name: user.user_name,
          email: user.user_email,
          deleted: false,
          client: clientId,
          groups: [{ id: user.role.id, name: user.role.name }],
        },
      ],
    },
  },
} satisfies AreaRouteExamples<"iam">;
