// The MCP SDK's server side as one module: the build keeps it in a file of its own (dist/vendor/), loaded when forge mcp starts serving.
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export {
  CallToolRequestSchema,
  ErrorCode,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  McpError,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
