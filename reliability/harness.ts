import { execFile, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, startProcess } from '../bench/processes.js';

/** The built CLI as a user runs it, and the calls the scenarios make against it. */

export const CLI = join(ROOT, 'dist/cli/main.js');

export interface Served {
  child: ChildProcess;
  url: string;
  logFile: string;
}

export async function serve(args: string[], logFile: string, nodeOptions: string[] = []): Promise<Served> {
  const { child, url } = await startProcess(
    [...nodeOptions, CLI, 'serve', '--port', '0', '--log-level', 'warn', '--rate-limit', '0', ...args],
    logFile,
  );
  return { child, url, logFile };
}

/** The token and chat run a first start printed (waiting up to 10 s for the banner to reach the log file). */
export async function demoCredentials(logFile: string): Promise<{ token: string; chatRun: string }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const log = readFileSync(logFile, 'utf8');
    const token = /token \(shown once, keep it\):\s+(cmcp_\S+)/.exec(log)?.[1];
    const chatRun = /agent run id \(X-Agent-Run-Id\): (chat_\S+)/.exec(log)?.[1];
    if (token && chatRun) return { token, chatRun };
    if (Date.now() > deadline) throw new Error(`no demo credentials in ${logFile}:\n${log.slice(-2000)}`);
    await sleep(50);
  }
}

export function admin(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, 'admin', ...args, '--json'], { cwd: ROOT }, (error, stdout) => {
      try {
        resolve(JSON.parse(stdout) as Record<string, unknown>);
      } catch {
        reject(error ?? new Error(`admin ${args.join(' ')}: ${stdout}`));
      }
    });
  });
}

export function agentHeaders(token: string, chatRun?: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    ...(chatRun ? { 'x-agent-run-id': chatRun } : {}),
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
}

export interface CallAnswer {
  status: number;
  /** The tool's structuredContent (success or error), or the JSON-RPC error. */
  content: Record<string, unknown> | undefined;
  isError: boolean;
  rpcError: { code: number; data?: { code?: string } } | undefined;
  /** The request never got an HTTP answer (connection refused or reset). */
  transportError: boolean;
}

export async function mcpRaw(url: string, headers: Record<string, string>, body: string | Buffer): Promise<CallAnswer> {
  try {
    const response = await fetch(`${url}/mcp`, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    let json:
      | { result?: { structuredContent?: Record<string, unknown>; isError?: boolean }; error?: CallAnswer['rpcError'] }
      | undefined;
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      json = undefined;
    }
    // Only a result that is not isError is a success: a JSON-RPC error or an HTTP refusal carries no result.
    const isError = response.status !== 200 || json?.result === undefined || json.result.isError === true;
    return {
      status: response.status,
      content: json?.result?.structuredContent,
      isError,
      rpcError: json?.error,
      transportError: false,
    };
  } catch {
    return { status: 0, content: undefined, isError: true, rpcError: undefined, transportError: true };
  }
}

export function mcpCall(
  url: string,
  headers: Record<string, string>,
  name: string,
  args: Record<string, unknown>,
): Promise<CallAnswer> {
  return mcpRaw(
    url,
    headers,
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  );
}

export function errorCode(answer: CallAnswer): string | undefined {
  return (answer.content?.error as { code?: string } | undefined)?.code ?? answer.rpcError?.data?.code;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function stop(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/**
 * The faults every kind of job's workers meet (runs and exports): the first worker killed (SIGKILL) mid-job and
 * replaced by a fresh one, then the second stopped (SIGSTOP) past its lease and resumed. `workers` is changed in place:
 * the replacement takes the killed worker's place.
 */
export async function killAndStall(
  workers: ChildProcess[],
  startWorker: (index: number) => Promise<ChildProcess>,
  times: { killAfterMs: number; stallAfterMs: number },
): Promise<void> {
  await sleep(times.killAfterMs);
  workers[0]!.kill('SIGKILL');
  workers[0] = await startWorker(workers.length);
  await sleep(times.stallAfterMs);
  workers[1]!.kill('SIGSTOP');
  await sleep(2_500);
  workers[1]!.kill('SIGCONT');
}

/** Ends the scenario's workers (resumed first: a stopped process is not killed until it runs) and its server. */
export async function stopWorkersAndServer(workers: ChildProcess[], served: Served | undefined): Promise<void> {
  for (const worker of workers) {
    worker.kill('SIGCONT');
    await stop(worker, 'SIGKILL');
  }
  await stop(served?.child, 'SIGKILL');
}

/** One line of the final table. */
export interface Row {
  scenario: string;
  store: string;
  acknowledged?: number;
  present?: number;
  integrity?: 'ok' | 'BROKEN';
  lost?: number;
  halfApplied?: number;
  doubleCharged?: number;
  doubleExecuted?: number;
  refusedCleanly?: string;
  fiveXX?: number;
  internal?: number;
  bypasses?: number;
  recoveryMs?: number;
  rssDriftMb?: number;
  /** Growth of the heap that stays reachable (after a full GC), in MB. */
  heapDriftMb?: number;
  notes?: string;
  pass: boolean;
}
