namespace odf_hash::logical_detail { int layer_marker = 0; }
