import type { Page } from 'playwright-core';

/**
 * Files a test hands the page as a person's drop or paste would: made in the page as a DataTransfer (the test program
 * compiles without the DOM library, so the little of the DOM it uses is typed here).
 */

export interface PageFile {
  name: string;
  type: string;
  base64: string;
}

interface FileGlobals {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
  atob(text: string): string;
}

export const pageFile = (name: string, type: string, bytes: Buffer): PageFile => ({
  name,
  type,
  base64: bytes.toString('base64'),
});

/** A DataTransfer holding the files, made in the page (as the browser makes one for a drop or a paste). */
export function dataTransferOf(page: Page, files: PageFile[]) {
  return page.evaluateHandle((list) => {
    const { DataTransfer, File, atob } = globalThis as unknown as FileGlobals;
    const transfer = new DataTransfer();
    for (const file of list) {
      const bytes = Uint8Array.from(atob(file.base64), (character) => character.charCodeAt(0));
      transfer.items.add(new File([bytes], file.name, { type: file.type }));
    }
    return transfer;
  }, files);
}
