// What the /mcp route puts in a request's authInfo.extra so tools know whose mailbox they serve. A
// leaf with no imports: the call context, the transports and the confirm codecs all read it.

export interface TokenExtra {
  tokenId: string;
  grantId: string;
}
