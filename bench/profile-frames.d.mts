export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
export function frameName(callFrame: CallFrame): string;
export function frameFile(callFrame: CallFrame): string;
