{{ typed_current_state('store.products') }}
