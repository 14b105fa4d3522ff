import type { MessagePort } from 'node:worker_threads';
import { sayStarted } from '../../shared/worker-deadline.js';
import { readScript } from './read-script.js';
import { ScriptRefused } from './reading.js';
import type { ScriptReading } from './read-pool.js';

/**
 * The worker thread side of the script reader (src/storyboard/screenplay/read-pool.ts): reads one file, and answers
 * what it read or why it refused it as plain data (an error's class does not cross threads). It says when it starts
 * reading on `started`, so the deadline counts the reading, not the thread's start or the wait in line.
 */
export default function read(task: { fileName: string; text: string; started: MessagePort }): ScriptReading {
  sayStarted(task.started);
  try {
    const { source, read: script } = readScript(task.fileName, task.text);
    return { kind: 'read', source, script };
  } catch (error) {
    if (error instanceof ScriptRefused) return { kind: 'refused', message: error.message, line: error.line };
    throw error;
  }
}
