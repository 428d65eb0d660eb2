// The package's own declaration names the module 'domino' and types it with the browser's DOM.
declare module '@mixmark-io/domino' {
  interface DominoNode {
    readonly nodeType: number;
    readonly nodeName: string;
    nodeValue: string | null;
    readonly textContent: string | null;
    readonly parentNode: DominoNode | null;
    readonly previousSibling: DominoNode | null;
    readonly nextSibling: DominoNode | null;
    readonly firstChild: DominoNode | null;
    readonly childNodes: ArrayLike<DominoNode>;
    /** Lower case. */
    readonly localName?: string;
    /** Elements only. */
    readonly attributes?: ArrayLike<{ readonly name: string; readonly value: string }>;
    getAttribute?(name: string): string | null;
    insertBefore(node: DominoNode, before: DominoNode | null): DominoNode;
    removeChild(node: DominoNode): DominoNode;
  }
  interface DominoDocument {
    getElementById(id: string): DominoNode | null;
    createElement(name: string): DominoNode;
    createTextNode(text: string): DominoNode;
  }
  export function createDocument(html: string): DominoDocument;
  export type { DominoDocument, DominoNode };
}
