// The MCP SDK's client side as one module: the build keeps it in a file of its own (dist/vendor/), loaded only when a profile has MCP servers.
export { Client } from '@modelcontextprotocol/client';
export { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
