// The MCP SDK's server side as one module: the build keeps it in a file of its own (dist/vendor/), loaded when forge mcp starts serving.
export {
  Server,
  ProtocolError,
  ProtocolErrorCode,
  isJSONRPCRequest,
  isJSONRPCNotification,
  isJSONRPCResponse,
  type JSONRPCMessage,
  type Tool,
} from '@modelcontextprotocol/server';
export { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
