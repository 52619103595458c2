{
  "targets": [
    {
      "target_name": "strand_native",
      "sources": ["native/strand_native.cc"]
    }
  ]
}
