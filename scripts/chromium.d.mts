export declare const systemChromium: { executablePath: string; args: string[] };
