/**
 * V8 CPU profiles as the bench writes them, and the frames of a bundle put back where they came from
 * through its source map: so that a profile puts a bundle's time where it sits (our packages, and each
 * library bundled into them: the handlers' dist carries @ts-rest/serverless and itty-router), for the
 * Node servers' profiles as for workerd's.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
  scriptId?: string;
}

export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** V8's sampled allocation profile (HeapProfiler.stopSampling): a tree of call frames, each with the bytes allocated in it. */
export interface HeapProfile {
  head: HeapNode;
}

export interface HeapNode {
  callFrame: CallFrame;
  /** Bytes allocated in this frame itself, as sampled (an estimate of the total). */
  selfSize: number;
  children: HeapNode[];
}

/** Every node of an allocation profile's tree. */
export function heapNodes(profile: HeapProfile): HeapNode[] {
  const nodes: HeapNode[] = [];
  const visit = (node: HeapNode) => {
    nodes.push(node);
    node.children.forEach(visit);
  };
  visit(profile.head);
  return nodes;
}

/**
 * Gives each frame whose script `bundleOf(url)` names (a file with its `.map` beside it) the file, line
 * and name it came from, in place; every other frame is left as it is.
 */
export function mapBundleFrames(profile: { nodes: readonly { callFrame: CallFrame }[] }, bundleOf: (url: string) => string | undefined): void {
  const maps = new Map<string, TraceMap>();
  for (const { callFrame } of profile.nodes) {
    const script = bundleOf(callFrame.url);
    if (script === undefined) continue;
    let map = maps.get(script);
    if (map === undefined) maps.set(script, (map = new TraceMap(readFileSync(`${script}.map`, "utf8"))));
    const original = originalPositionFor(map, { line: callFrame.lineNumber + 1, column: callFrame.columnNumber });
    if (original.source === null) continue;
    callFrame.url = `file://${resolve(dirname(script), original.source)}`;
    callFrame.lineNumber = original.line - 1;
    callFrame.columnNumber = original.column;
    if (original.name) callFrame.functionName = original.name;
  }
}

/** Our packages' built files (`packages/<name>/dist/…`), as Node names them in a profile: the bundles to map. */
export function packageBundle(url: string): string | undefined {
  return url.startsWith("file://") && /\/packages\/[^/]+\/dist\/.+\.[cm]?js$/.test(url) ? fileURLToPath(url) : undefined;
}
