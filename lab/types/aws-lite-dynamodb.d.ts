// @aws-lite/dynamodb ships no types: a plugin object handed to @aws-lite/client (bench variant only).
declare module '@aws-lite/dynamodb' {
  const plugin: object;
  export default plugin;
}
