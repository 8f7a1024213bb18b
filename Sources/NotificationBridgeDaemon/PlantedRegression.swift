#if NB_PLANTED_REGRESSION
    /// Work added to every `Post` in the build `make gates-selftest` makes (`-D NB_PLANTED_REGRESSION`), and in no
    /// other: the gates must fail it. Unoptimised, so that the allocations stay whatever the compiler can prove.
    enum PlantedRegression {
        /// Fifty small arrays, each allocated and freed.
        @_optimize(none)
        static func run() {
            var total = 0
            for index in 0..<50 {
                let block = [Int](repeating: index, count: 16)
                total &+= block.count
            }
            precondition(total == 800)
        }
    }
#endif
