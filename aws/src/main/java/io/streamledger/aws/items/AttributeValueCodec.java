package io.streamledger.aws.items;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Explicit binary form of DynamoDB attribute values for sink state (no Java serialization or Kryo
 * in state); also the canonical key bytes used to coalesce writes (CS06).
 *
 * <p>Each value is one tag byte followed by its payload. Strings are length-prefixed UTF-8 (not
 * {@code writeUTF}, whose 64 KiB limit is below DynamoDB's 400 KB item limit).
 */
public final class AttributeValueCodec {
    /** DynamoDB's nesting limit for lists and maps. */
    static final int MAX_DEPTH = 32;

    /** Largest length prefix accepted on read: DynamoDB's item size limit. */
    static final int MAX_LENGTH = 400 * 1024;

    private static final byte TAG_S = 1;
    private static final byte TAG_N = 2;
    private static final byte TAG_B = 3;
    private static final byte TAG_BOOL = 4;
    private static final byte TAG_NUL = 5;
    private static final byte TAG_SS = 6;
    private static final byte TAG_NS = 7;
    private static final byte TAG_BS = 8;
    private static final byte TAG_L = 9;
    private static final byte TAG_M = 10;

    private AttributeValueCodec() {}

    /** Writes a map (name order as given) of attribute values. */
    public static void writeMap(Map<String, AttributeValue> map, DataOutputStream out)
            throws IOException {
        writeMap(map, out, 0);
    }

    /** Reads a map written by {@link #writeMap}, keeping its order. */
    public static Map<String, AttributeValue> readMap(DataInputStream in) throws IOException {
        return readMap(in, 0);
    }

    public static void writeString(String s, DataOutputStream out) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    public static String readString(DataInputStream in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    private static void writeMap(Map<String, AttributeValue> map, DataOutputStream out, int depth)
            throws IOException {
        out.writeInt(map.size());
        for (Map.Entry<String, AttributeValue> e : map.entrySet()) {
            writeString(e.getKey(), out);
            writeValue(e.getValue(), out, depth);
        }
    }

    private static Map<String, AttributeValue> readMap(DataInputStream in, int depth)
            throws IOException {
        int size = readLength(in);
        Map<String, AttributeValue> map = new LinkedHashMap<>();
        for (int i = 0; i < size; i++) {
            String name = readString(in);
            map.put(name, readValue(in, depth));
        }
        return map;
    }

    private static void writeValue(AttributeValue v, DataOutputStream out, int depth)
            throws IOException {
        if (depth > MAX_DEPTH) {
            throw new IOException("attribute value nested deeper than " + MAX_DEPTH);
        }
        switch (v.type()) {
            case S:
                out.writeByte(TAG_S);
                writeString(v.s(), out);
                break;
            case N:
                out.writeByte(TAG_N);
                writeString(v.n(), out);
                break;
            case B:
                out.writeByte(TAG_B);
                writeBytes(v.b().asByteArrayUnsafe(), out);
                break;
            case BOOL:
                out.writeByte(TAG_BOOL);
                out.writeBoolean(v.bool());
                break;
            case NUL:
                out.writeByte(TAG_NUL);
                break;
            case SS:
                out.writeByte(TAG_SS);
                writeStrings(v.ss(), out);
                break;
            case NS:
                out.writeByte(TAG_NS);
                writeStrings(v.ns(), out);
                break;
            case BS:
                out.writeByte(TAG_BS);
                out.writeInt(v.bs().size());
                for (SdkBytes b : v.bs()) {
                    writeBytes(b.asByteArrayUnsafe(), out);
                }
                break;
            case L:
                out.writeByte(TAG_L);
                out.writeInt(v.l().size());
                for (AttributeValue element : v.l()) {
                    writeValue(element, out, depth + 1);
                }
                break;
            case M:
                out.writeByte(TAG_M);
                writeMap(v.m(), out, depth + 1);
                break;
            default:
                throw new IOException("cannot encode attribute value of type " + v.type());
        }
    }

    private static AttributeValue readValue(DataInputStream in, int depth) throws IOException {
        if (depth > MAX_DEPTH) {
            throw new IOException("attribute value nested deeper than " + MAX_DEPTH);
        }
        byte tag = in.readByte();
        switch (tag) {
            case TAG_S:
                return AttributeValue.fromS(readString(in));
            case TAG_N:
                return AttributeValue.fromN(readString(in));
            case TAG_B:
                return AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(readBytes(in)));
            case TAG_BOOL:
                return AttributeValue.fromBool(in.readBoolean());
            case TAG_NUL:
                return AttributeValue.fromNul(true);
            case TAG_SS:
                return AttributeValue.fromSs(readStrings(in));
            case TAG_NS:
                return AttributeValue.fromNs(readStrings(in));
            case TAG_BS:
                {
                    int n = readLength(in);
                    List<SdkBytes> list = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        list.add(SdkBytes.fromByteArrayUnsafe(readBytes(in)));
                    }
                    return AttributeValue.fromBs(list);
                }
            case TAG_L:
                {
                    int n = readLength(in);
                    List<AttributeValue> list = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        list.add(readValue(in, depth + 1));
                    }
                    return AttributeValue.fromL(list);
                }
            case TAG_M:
                return AttributeValue.fromM(readMap(in, depth + 1));
            default:
                throw new IOException("unknown attribute value tag " + tag);
        }
    }

    private static void writeStrings(List<String> strings, DataOutputStream out)
            throws IOException {
        out.writeInt(strings.size());
        for (String s : strings) {
            writeString(s, out);
        }
    }

    private static List<String> readStrings(DataInputStream in) throws IOException {
        int n = readLength(in);
        List<String> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(readString(in));
        }
        return list;
    }

    private static void writeBytes(byte[] bytes, DataOutputStream out) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        byte[] bytes = new byte[readLength(in)];
        in.readFully(bytes);
        return bytes;
    }

    private static int readLength(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_LENGTH) {
            throw new IOException("corrupt length " + n + " (limit " + MAX_LENGTH + ")");
        }
        return n;
    }
}
