namespace odf_hash::io_detail { int layer_marker = 0; }
