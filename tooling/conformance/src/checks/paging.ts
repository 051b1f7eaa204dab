/**
 * Lists and their paging (the guide's Pagination section): edge apps by limit/offset with a count, streams by page
 * with X-Total-Count, inference models by limit/offset with a count. Each list is read whole first, and
 * its pages must join up to it.
 */
import { STREAMS_PAGE_SIZE } from "@cloudplane/contract";
import { type ConformanceCheck } from "../check.js";
import { arrayBody, expectEqual, expectStatus, expectTrue, objectBody } from "../expect.js";

interface Page {
  ids: (number | string)[];
  count: number;
}

export const pagingChecks: ConformanceCheck[] = [
  {
    name: "paging: edge apps page by limit and offset in id order; count is the total before paging",
    async run({ client }) {
      const list = async (query: string): Promise<Page> => {
        const reply = await client.call("GET", `/edge/v1/apps${query}`);
        expectStatus(reply, 200);
        const body = objectBody(reply) as { apps: { id: number }[]; count: number };
        return { ids: body.apps.map((app) => app.id), count: body.count };
      };
      // The account's apps now: the demo data's, and any a client made since (other checks make some).
      const expected = (await list("?limit=1000")).ids as number[];
      expectTrue(expected.length > 7, "the account has more than 7 edge apps, for pages of 7");
      expectEqual([...expected].sort((a, b) => a - b), expected, "the list in id order");
      const first = await list("");
      expectEqual(first, { ids: expected.slice(0, 25), count: expected.length }, "the default page: 25 apps by id");
      const seen: (number | string)[] = [];
      for (let offset = 0; offset < expected.length; offset += 7) {
        const page = await list(`?limit=7&offset=${offset}`);
        expectEqual(page.count, expected.length, `count at offset ${offset}`);
        seen.push(...page.ids);
      }
      expectEqual(seen, expected, "pages of 7 joined");
      expectEqual(await list(`?offset=${expected.length}`), { ids: [], count: expected.length }, "an offset past the end");
      expectEqual(await list("?limit=1000"), { ids: expected, count: expected.length }, "limit=1000");
      const byName = await list("?ordering=-id&limit=3&offset=1");
      expectEqual(byName.ids, [...expected].reverse().slice(1, 4), "ordering=-id, then paged");
    },
  },
  {
    name: "paging: streams page 25 at a time, newest first, with X-Total-Count",
    async run({ client }) {
      // The account's streams now, newest first: the demo data's, and any a client made since.
      const total = Number((await client.call("GET", "/streaming/streams?page=1")).headers.get("x-total-count"));
      const expected: number[] = [];
      for (let page = 1; page <= Math.ceil(total / STREAMS_PAGE_SIZE); page++)
        expected.push(...arrayBody(await client.call("GET", `/streaming/streams?page=${page}`)).map((stream) => stream.id as number));
      expectTrue(expected.length > STREAMS_PAGE_SIZE, `the account has more than ${STREAMS_PAGE_SIZE} streams, for two pages`);
      expectEqual([...expected].sort((a, b) => b - a), expected, "the list newest first");
      const pages = Math.ceil(expected.length / STREAMS_PAGE_SIZE);
      const seen: number[] = [];
      for (let page = 1; page <= pages + 1; page++) {
        const reply = await client.call("GET", `/streaming/streams?page=${page}`);
        expectStatus(reply, 200);
        expectEqual(reply.headers.get("x-total-count"), String(expected.length), `X-Total-Count on page ${page}`, reply);
        const ids = arrayBody(reply).map((stream) => stream.id as number);
        expectEqual(ids, expected.slice((page - 1) * STREAMS_PAGE_SIZE, page * STREAMS_PAGE_SIZE), `page ${page}`);
        seen.push(...ids);
      }
      expectEqual(seen, expected, "every page joined");
      const unpaged = await client.call("GET", "/streaming/streams");
      expectEqual(arrayBody(unpaged).map((stream) => stream.id), expected.slice(0, STREAMS_PAGE_SIZE), "no page is page 1", unpaged);
    },
  },
  {
    name: "paging: inference models page by limit and offset, by name by default; count is the catalogue's size",
    async run({ client }) {
      const catalogue = await client.call("GET", "/cloud/v2/inference/models?limit=1000");
      expectStatus(catalogue, 200);
      const models = (objectBody(catalogue) as { results: { id: string; name: string }[] }).results;
      expectTrue(models.length > 5, "the catalogue has more than 5 models, for pages of 5", catalogue);
      const list = async (query: string): Promise<Page> => {
        const reply = await client.call("GET", `/cloud/v2/inference/models${query}`);
        expectStatus(reply, 200);
        const body = objectBody(reply) as { results: { id: string }[]; count: number };
        return { ids: body.results.map((model) => model.id), count: body.count };
      };
      const whole = await list("");
      expectEqual(whole.count, models.length, "count");
      expectEqual([...whole.ids].sort(), models.map((model) => model.id).sort(), "the whole catalogue");
      const seen: (number | string)[] = [];
      for (let offset = 0; offset < models.length; offset += 5) {
        const page = await list(`?limit=5&offset=${offset}`);
        expectEqual(page.count, models.length, `count at offset ${offset}`);
        seen.push(...page.ids);
      }
      expectEqual(seen, whole.ids, "pages of 5 joined, in the default order");
      expectEqual(await list(`?offset=${models.length}`), { ids: [], count: models.length }, "an offset past the end");
      const descending = await list("?order_by=name.desc");
      expectEqual(descending.ids.length, models.length, "order_by=name.desc lists the whole catalogue");
      const byName = new Map(models.map((model) => [model.id, model.name]));
      const names = descending.ids.map((id) => byName.get(id as string)!);
      expectEqual(names, [...names].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)), "order_by=name.desc");
    },
  },
];
