namespace odf_hash::odf_detail { int layer_marker = 0; }
